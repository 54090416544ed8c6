// The package version (shown by health, the CLI banner and exports): package.json's, written here by `npm version`.
// A constant rather than a read of package.json, so no host needs a file system for it; a test keeps the two equal.
export const VERSION = '0.1.0';
