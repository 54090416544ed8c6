// Parses date-times the way Pydantic v2 (speedate) does, with its exact error texts for the 422 ctx.

export type DatetimeResult = { ok: true; ms: number } | { ok: false; error: string };

const TOO_SHORT = 'input is too short';
const DIGIT = /[0-9]/;

function digits(s: string, from: number, count: number): number | undefined {
  const part = s.slice(from, from + count);
  if (part.length < count) return undefined;
  for (const ch of part) if (!DIGIT.test(ch)) return undefined;
  return Number(part);
}

/** Unix timestamps in seconds, or milliseconds when large, as Pydantic reads numeric strings. */
function fromTimestamp(s: string): DatetimeResult | undefined {
  if (!/^-?\d+(\.\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return { ok: true, ms: Math.abs(n) > 2e10 ? n : n * 1000 };
}

export function parsePydanticDatetime(input: string): DatetimeResult {
  const ts = fromTimestamp(input);
  if (ts) return ts;
  const s = input;
  if (s.length < 10) return { ok: false, error: TOO_SHORT };
  const year = digits(s, 0, 4);
  if (year === undefined) return { ok: false, error: 'invalid character in year' };
  if (s[4] !== '-') return { ok: false, error: 'invalid date separator, expected `-`' };
  const month = digits(s, 5, 2);
  if (month === undefined) return { ok: false, error: 'invalid character in month' };
  if (s[7] !== '-') return { ok: false, error: 'invalid date separator, expected `-`' };
  const day = digits(s, 8, 2);
  if (day === undefined) return { ok: false, error: 'invalid character in day' };
  if (month < 1 || month > 12) return { ok: false, error: 'month value is outside expected range of 1-12' };
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return { ok: false, error: 'day value is outside expected range' };
  const dateMs = Date.UTC(year, month - 1, day);
  if (s.length === 10) return { ok: true, ms: dateMs };
  if (!'Tt _'.includes(s[10]))
    return { ok: false, error: 'invalid datetime separator, expected `T`, `t`, `_` or space' };
  // Pydantic parses "datetime or date": once the date is good, any failure in the rest reads as trailing characters.
  const time = parseTime(s, 11, dateMs);
  return time.ok ? time : { ok: false, error: 'unexpected extra characters at the end of the input' };
}

function parseTime(s: string, start: number, dateMs: number): DatetimeResult {
  const hour = digits(s, start, 2);
  if (hour === undefined) return { ok: false, error: s.length < start + 2 ? TOO_SHORT : 'invalid character in hour' };
  if (s[start + 2] !== ':')
    return { ok: false, error: s.length <= start + 2 ? TOO_SHORT : 'invalid time separator, expected `:`' };
  const minute = digits(s, start + 3, 2);
  if (minute === undefined)
    return { ok: false, error: s.length < start + 5 ? TOO_SHORT : 'invalid character in minute' };
  if (hour > 23) return { ok: false, error: 'hour value is outside expected range of 0-23' };
  if (minute > 59) return { ok: false, error: 'minute value is outside expected range of 0-59' };
  let i = start + 5;
  let second = 0;
  let fraction = 0;
  if (s[i] === ':') {
    const sec = digits(s, i + 1, 2);
    if (sec === undefined) return { ok: false, error: s.length < i + 3 ? TOO_SHORT : 'invalid character in second' };
    if (sec > 59) return { ok: false, error: 'second value is outside expected range of 0-59' };
    second = sec;
    i += 3;
    if (s[i] === '.' || s[i] === ',') {
      const match = /^\d+/.exec(s.slice(i + 1));
      if (!match) return { ok: false, error: 'second fraction value is more than 6 digits long' };
      fraction = Number(`0.${match[0].slice(0, 6)}`);
      i += 1 + match[0].length;
    }
  }
  let offsetMin = 0;
  if (i < s.length) {
    const sign = s[i];
    if (sign === 'Z' || sign === 'z') i += 1;
    else if (sign === '+' || sign === '-') {
      const oh = digits(s, i + 1, 2);
      if (oh === undefined) return { ok: false, error: 'invalid timezone hour' };
      let j = i + 3;
      if (s[j] === ':') j += 1;
      const om = digits(s, j, 2);
      if (om === undefined) return { ok: false, error: 'invalid timezone minute' };
      if (oh > 23 || om > 59) return { ok: false, error: 'invalid timezone offset' };
      offsetMin = (sign === '-' ? -1 : 1) * (oh * 60 + om);
      i = j + 2;
    } else return { ok: false, error: 'invalid timezone sign' };
  }
  if (i < s.length) return { ok: false, error: 'unexpected extra characters at the end of the input' };
  return { ok: true, ms: dateMs + ((hour * 60 + minute - offsetMin) * 60 + second + fraction) * 1000 };
}
