// The service's version: package.json, CHANGELOG.md's newest entry, the discovery document, OpenAPI and the MCP
// server info all carry it (a test holds them equal).
export const SERVICE_VERSION = '1.4.0';
