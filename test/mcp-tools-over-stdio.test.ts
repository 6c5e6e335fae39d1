import { connectGardener } from './helpers/mcp-client.js';
import { mcpToolsSuite } from './helpers/mcp-tools-suite.js';

mcpToolsSuite('stdio in-process', (root, env) => connectGardener(root, { ...env, GARDENER_NO_OWNER: '1' }));
