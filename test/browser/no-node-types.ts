// Fails tsconfig.browser.json's check when Node's types reach it (an import that pulls in @types/node, e.g. Express's):
// then Buffer and process would be defined there, and the check would pass code that cannot run in a browser.

// @ts-expect-error Buffer is Node's: no module of the browser's check may see it.
export type NodeBuffer = typeof Buffer;
// @ts-expect-error process is Node's: no module of the browser's check may see it.
export type NodeProcess = typeof process;
