// Catalogue loading: the fixture's content, look-ups, and broken files refused with the file and field named.
import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueError, formatPath, parseCatalogue } from '../../../src/domain/catalogue.js';
import { DEFAULT_CATALOGUE_PATH, loadCatalogue } from '../../../src/wiring/node/catalogue-file.js';

const fixtureText = readFileSync(DEFAULT_CATALOGUE_PATH, 'utf8');
/** A fresh, mutable copy of the fixture for each broken-catalogue case. */
const fixture = (): any => JSON.parse(fixtureText);

describe('the fixture catalogue', () => {
  const catalogue = loadCatalogue();

  it('loads from the default path beside the package', () => {
    expect(DEFAULT_CATALOGUE_PATH.endsWith(join('fixtures', 'catalogue.json'))).toBe(true);
    expect(existsSync(DEFAULT_CATALOGUE_PATH)).toBe(true);
    expect(catalogue.source).toBe(DEFAULT_CATALOGUE_PATH);
  });

  it('holds the two spec models first, then three emulator examples', () => {
    expect(catalogue.models.map((m) => [m.slug, m.kind, m.emulator_example])).toEqual([
      ['motion-lite-v1', 'video', false],
      ['keyframe-pro-v2', 'video', false],
      ['still-sketch-v1', 'image', true],
      ['tone-music-v1', 'music', true],
      ['mesh-blocks-v1', '3d', true],
    ]);
    for (const m of catalogue.models.filter((e) => e.emulator_example)) {
      expect(m.description).toContain('Emulator example model, not part of the service specification');
      expect(m.reference_inputs).toBeNull();
    }
  });

  it('describes Model A as the spec does', () => {
    const a = catalogue.get('motion-lite-v1')!;
    expect(a.capabilities).toEqual(['text-to-video', 'image-to-video', 'native-audio']);
    expect(a.prompt).toEqual({ required: true, max_length: 2500 });
    expect(a.option_groups.map((g) => [g.name, g.values, g.default])).toEqual([
      ['duration', ['4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'], '4'],
      ['quality', ['480p', '720p'], '480p'],
      ['size', ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'], '16:9'],
      ['audio', ['off', 'on'], 'off'],
      ['count', ['1', '2', '3', '4'], '1'],
    ]);
    for (const g of a.option_groups) expect(g.label && g.description).toBeTruthy();
    expect(a.reference_inputs).toMatchObject({
      field: 'refs',
      max_files: 1,
      accepts: ['upload_id'],
      max_bytes: 10 * 1024 * 1024,
    });
    expect(a.reference_inputs!.slots.map((s) => [s.name, s.role])).toEqual([['start_image', 'first']]);
    expect(a.output).toEqual({ format: 'mp4', mime_type: 'video/mp4' });
  });

  it('describes Model B as the spec does', () => {
    const b = catalogue.get('keyframe-pro-v2')!;
    expect(b.option_groups.map((g) => [g.name, g.values.length, g.default])).toEqual([
      ['duration', 13, '3'],
      ['size', 3, '16:9'],
      ['audio', 2, 'off'],
      ['count', 4, '1'],
    ]);
    expect(b.reference_inputs).toMatchObject({
      max_files: 2,
      accepts: ['upload_id'],
      formats: ['png', 'jpeg', 'webp'],
    });
    expect(b.reference_inputs!.slots.map((s) => [s.name, s.role])).toEqual([
      ['first_frame', 'first'],
      ['last_frame', 'last'],
    ]);
    expect(b.output).toEqual({ format: 'mp4', mime_type: 'video/mp4', default_quality: '720p' });
    expect(b.price).toEqual({
      unit: 'second',
      credits_per_unit: '763/3',
      units_from: 'duration',
      count_from: 'count',
      multipliers: {},
      rounding: 'ceil',
    });
  });

  it('finds models by slug and answers undefined for others, prototype names included', () => {
    expect(catalogue.get('keyframe-pro-v2')).toBe(catalogue.models[1]);
    expect(catalogue.get('nope')).toBeUndefined();
    expect(catalogue.get('__proto__')).toBeUndefined();
    expect(catalogue.get('MOTION-LITE-V1')).toBeUndefined();
  });

  it('filters by kind and returns a fresh array each time', () => {
    expect(catalogue.list('video').map((m) => m.slug)).toEqual(['motion-lite-v1', 'keyframe-pro-v2']);
    expect(catalogue.list('image').map((m) => m.slug)).toEqual(['still-sketch-v1']);
    expect(catalogue.list('music').map((m) => m.slug)).toEqual(['tone-music-v1']);
    expect(catalogue.list('3d').map((m) => m.slug)).toEqual(['mesh-blocks-v1']);
    expect(catalogue.list()).toHaveLength(5);
    const list = catalogue.list('video');
    list.pop();
    expect(catalogue.list('video')).toHaveLength(2);
  });

  it('is frozen, so one emulator cannot change the models another sees', () => {
    const a = catalogue.get('motion-lite-v1')!;
    expect(() => {
      a.option_groups[0].values.push('99');
    }).toThrow(TypeError);
    expect(Object.isFrozen(a.price.multipliers.quality)).toBe(true);
  });

  it('loads twice into independent catalogues', () => {
    const other = loadCatalogue(DEFAULT_CATALOGUE_PATH);
    expect(other).not.toBe(catalogue);
    expect(other.models).toEqual(catalogue.models);
  });
});

describe('a broken catalogue', () => {
  const source = '/x/y.json';
  const cases: [string, (data: any) => void, string][] = [
    [
      'a default that is not a value',
      (d) => {
        d.models[1].option_groups[0].default = '99';
      },
      'catalogue /x/y.json: models[1].option_groups[0].default: must be one of values',
    ],
    [
      // GET /files serves an output with this type, and the OpenAPI document lists one type per format.
      "an output media type that is not its format's",
      (d) => {
        d.models[0].output.mime_type = 'video/quicktime';
      },
      'models[0].output.mime_type: must be "video/mp4", the media type of mp4',
    ],
    [
      'units_from naming an unknown group',
      (d) => {
        d.models[0].price.units_from = 'length';
      },
      "models[0].price.units_from: no option group 'length'",
    ],
    [
      'count_from naming a group of non-integers',
      (d) => {
        d.models[0].price.count_from = 'size';
      },
      'models[0].option_groups[2].values[0]: must be a positive integer, because price.count_from names this group',
    ],
    [
      'a units group with a zero value',
      (d) => {
        d.models[3].option_groups[0].values.push('0');
      },
      'models[3].option_groups[0].values[4]: must be a positive integer',
    ],
    [
      'a multiplier for an unknown group',
      (d) => {
        d.models[0].price.multipliers = { fps: { '60': '2' } };
      },
      "models[0].price.multipliers.fps: no option group 'fps'",
    ],
    [
      'a multiplier for an unknown value',
      (d) => {
        d.models[0].price.multipliers.quality['1080p'] = '4';
      },
      "models[0].price.multipliers.quality[\"1080p\"]: '1080p' is not a value of option group 'quality'",
    ],
    [
      'a price with a zero denominator',
      (d) => {
        d.models[1].price.credits_per_unit = '763/0';
      },
      'models[1].price.credits_per_unit: denominator must not be zero',
    ],
    [
      'a price that is not a number',
      (d) => {
        d.models[1].price.credits_per_unit = '21,8';
      },
      'models[1].price.credits_per_unit: must be a decimal',
    ],
    [
      'a duplicate slug',
      (d) => {
        d.models[2].slug = 'motion-lite-v1';
      },
      "models[2].slug: duplicate slug 'motion-lite-v1' (also models[0])",
    ],
    [
      'a duplicate option group',
      (d) => {
        d.models[2].option_groups[1].name = 'size';
      },
      "models[2].option_groups[1].name: duplicate option group 'size'",
    ],
    [
      'more slots than max_files',
      (d) => {
        d.models[1].reference_inputs.max_files = 1;
      },
      'models[1].reference_inputs.slots: 2 slots but max_files is 1',
    ],
    [
      'two slots with one role',
      (d) => {
        d.models[1].reference_inputs.slots[1].role = 'first';
      },
      "models[1].reference_inputs.slots[1].role: duplicate role 'first'",
    ],
    [
      'a duplicate option value',
      (d) => {
        d.models[0].option_groups[1].values.push('480p');
      },
      "models[0].option_groups[1].values[2]: duplicate value '480p'",
    ],
    [
      'a price table row naming an unknown group',
      (d) => {
        d.models[0].price.table = [{ params: { quality: '480p', fps: '60' }, credits: 10 }];
      },
      "models[0].price.table[0].params.fps: no option group 'fps'",
    ],
    [
      'a price table row naming an unknown value',
      (d) => {
        d.models[0].price.table = [{ params: { quality: '1080p' }, credits: 10 }];
      },
      "models[0].price.table[0].params.quality: '1080p' is not a value of option group 'quality'",
    ],
    [
      'two slots with one name',
      (d) => {
        d.models[1].reference_inputs.slots[1].name = 'first_frame';
      },
      "models[1].reference_inputs.slots[1].name: duplicate slot 'first_frame'",
    ],
    [
      'a minimum width above the maximum',
      (d) => {
        d.models[1].reference_inputs.min_width = 4097;
      },
      'models[1].reference_inputs.min_width: must not exceed max_width',
    ],
    [
      'a minimum height above the maximum',
      (d) => {
        d.models[1].reference_inputs.min_height = 4097;
      },
      'models[1].reference_inputs.min_height: must not exceed max_height',
    ],
    [
      'a missing price',
      (d) => {
        delete d.models[2].price;
      },
      'models[2].price: Invalid input',
    ],
    [
      'a missing prompt limit',
      (d) => {
        delete d.models[0].prompt.max_length;
      },
      'models[0].prompt.max_length: Invalid input',
    ],
    [
      'an unknown member',
      (d) => {
        d.models[4].colour = 'red';
      },
      'models[4]: Unrecognized key: "colour"',
    ],
    [
      'an unknown kind',
      (d) => {
        d.models[4].kind = 'hologram';
      },
      'models[4].kind: Invalid option',
    ],
    [
      'another version',
      (d) => {
        d.version = 2;
      },
      'version: Invalid input',
    ],
    [
      'no models',
      (d) => {
        d.models = [];
      },
      'models: Too small',
    ],
    [
      'a price too large for a JSON integer',
      (d) => {
        d.models[2].price.credits_per_unit = '9007199254740991';
      },
      'models[2].price: highest price 36028797018963964 exceeds 9007199254740991',
    ],
  ];

  it.each(cases)('is refused for %s, naming the field', (_name, mutate, expected) => {
    const data = fixture();
    mutate(data);
    expect(() => parseCatalogue(data, source)).toThrow(CatalogueError);
    expect(() => parseCatalogue(data, source)).toThrow(expected);
    expect(() => parseCatalogue(data, source)).toThrow(/^catalogue \/x\/y\.json: /);
  });

  it('names its errors CatalogueError, so a caller can tell them from other failures', () => {
    const data = fixture();
    data.models[0].price.units_from = 'length';
    const error = (() => {
      try {
        parseCatalogue(data, source);
      } catch (err) {
        return err as Error;
      }
    })();
    expect(error?.name).toBe('CatalogueError');
    expect(String(error)).toMatch(/^CatalogueError: catalogue \/x\/y\.json: /);
  });

  it('lists every problem at once', () => {
    const data = fixture();
    data.models[0].price.units_from = 'length';
    data.models[1].slug = 'motion-lite-v1';
    expect(() => parseCatalogue(data, source)).toThrow(
      "catalogue /x/y.json: models[0].price.units_from: no option group 'length'; models[1].slug: duplicate slug 'motion-lite-v1' (also models[0])",
    );
  });

  it('is refused when the data is not an object', () => {
    expect(() => parseCatalogue(null, source)).toThrow(/^catalogue \/x\/y\.json: \(root\): /);
    expect(() => parseCatalogue([], source)).toThrow(CatalogueError);
  });
});

describe('a catalogue at the edges of its rules', () => {
  // Parsed inside each test (not once per file), so the checks run while the test does.
  it('accepts a price table of known groups and values', () => {
    const data = fixture();
    data.models[0].price.table = [{ params: { quality: '720p', duration: '5', audio: 'on' }, credits: 321 }];
    expect(parseCatalogue(data, 'table.json').get('motion-lite-v1')!.price.table).toEqual([
      { params: { quality: '720p', duration: '5', audio: 'on' }, credits: 321 },
    ]);
  });

  it('accepts reference sizes whose minimum equals the maximum, or with only one bound', () => {
    const data = fixture();
    Object.assign(data.models[1].reference_inputs, { min_width: 512, max_width: 512, min_height: 640 });
    delete data.models[1].reference_inputs.max_height;
    expect(parseCatalogue(data, 'sizes.json').get('keyframe-pro-v2')!.reference_inputs).toMatchObject({
      min_width: 512,
      max_width: 512,
      min_height: 640,
    });
    delete data.models[1].reference_inputs.min_height;
    data.models[1].reference_inputs.max_height = 64;
    expect(parseCatalogue(data, 'sizes.json').get('keyframe-pro-v2')!.reference_inputs!.max_height).toBe(64);
  });

  it('accepts a model whose highest price is exactly the largest safe integer, and refuses one credit more', () => {
    // still-sketch-v1 charges credits_per_unit per image, up to 4 images: 4 × 2251799813685247.75 = 2^53 - 1.
    const data = fixture();
    data.models[2].price.credits_per_unit = '2251799813685247.75';
    expect(parseCatalogue(data, 'edge.json').get('still-sketch-v1')!.price.credits_per_unit).toBe(
      '2251799813685247.75',
    );
    data.models[2].price.credits_per_unit = '2251799813685248';
    expect(() => parseCatalogue(data, 'edge.json')).toThrow(
      'catalogue edge.json: models[2].price: highest price 9007199254740992 exceeds 9007199254740991',
    );
  });

  it('is frozen all the way down, so one emulator cannot change the models another sees', () => {
    const catalogue = parseCatalogue(fixture(), 'frozen.json');
    const b = catalogue.get('keyframe-pro-v2')!;
    expect(Object.isFrozen(catalogue.models)).toBe(true);
    expect(() => {
      (b.reference_inputs!.slots[0] as { name: string }).name = 'other';
    }).toThrow(TypeError);
    expect(() => {
      b.option_groups[1].values.push('1:1');
    }).toThrow(TypeError);
    expect(b.reference_inputs!.slots[0].name).toBe('first_frame');
  });
});

describe('loading a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-test-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reports invalid JSON with the file name', () => {
    const path = write('bad.json', '{"version": 1, "models": [');
    expect(() => loadCatalogue(path)).toThrow(CatalogueError);
    expect(() => loadCatalogue(path)).toThrow(`catalogue ${path}: invalid JSON: `);
  });

  it('reports a missing file with the file name', () => {
    const path = join(dir, 'absent.json');
    expect(() => loadCatalogue(path)).toThrow(`catalogue ${path}: cannot read the file: `);
  });

  it('reports a bad field with the file name', () => {
    const data = fixture();
    data.models[1].option_groups[0].default = '99';
    const path = write('bad-default.json', JSON.stringify(data));
    expect(() => loadCatalogue(path)).toThrow(
      `catalogue ${path}: models[1].option_groups[0].default: must be one of values`,
    );
  });

  it('accepts a file that starts with a byte-order mark', () => {
    const path = write('bom.json', `\uFEFF${fixtureText}`);
    expect(loadCatalogue(path).models).toHaveLength(5);
  });
});

describe('formatPath', () => {
  it('writes paths as JavaScript would', () => {
    expect(formatPath([])).toBe('(root)');
    expect(formatPath(['models', 1, 'option_groups', 0, 'default'])).toBe('models[1].option_groups[0].default');
    expect(formatPath(['models', 0, 'price', 'multipliers', 'quality', '720p'])).toBe(
      'models[0].price.multipliers.quality["720p"]',
    );
    // A key that only starts like an identifier still needs brackets.
    expect(formatPath(['models', 0, 'price', 'table', 0, 'params', 'aspect-ratio'])).toBe(
      'models[0].price.table[0].params["aspect-ratio"]',
    );
  });
});
