// The few DOM shapes the page-side test functions touch; the project compiles without lib "dom" so server code cannot use it.
// Inside page.evaluate write `(globalThis as unknown as PageGlobals).document`: the function runs in the browser, so it may not close over helpers.

export interface PageMediaError {
  code: number;
  message: string;
}

export interface PageVideo {
  src: string;
  crossOrigin: string | null;
  muted: boolean;
  preload: string;
  controls: boolean;
  readyState: number;
  duration: number;
  currentTime: number;
  error: PageMediaError | null;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: string, listener: (value?: unknown) => void, options?: { once?: boolean }): void;
}

export interface PageElement {
  outerHTML: string;
  textContent: string | null;
  labels?: { length: number } | null;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
}

export interface PageDocument {
  createElement(tag: 'video'): PageVideo;
  querySelectorAll(selector: string): Iterable<PageElement>;
  body: { append(node: unknown): void; dataset: Record<string, string | undefined> };
  documentElement: { scrollWidth: number; clientWidth: number };
}

export interface PageGlobals {
  document: PageDocument;
  location: { hash: string; href: string };
  localStorage: { getItem(key: string): string | null; removeItem(key: string): void };
  navigator: { clipboard: { readText(): Promise<string> } };
  getComputedStyle(element: unknown): { backgroundColor: string };
  scrollTo(x: number, y: number): void;
}
