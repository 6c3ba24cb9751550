/**
 * `mcp`: not implemented yet (the verification issue builds it); it reports `skip` with
 * the summary "not run", as the catalogue-core issue asks.
 */
import { skip, type Check } from '../check.js';

export const mcp: Check = {
  id: 'mcp',
  name: 'MCP configuration',
  run() {
    return skip('not run');
  },
};
