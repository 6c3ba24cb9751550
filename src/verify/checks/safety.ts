/**
 * `safety`: not implemented yet (the verification issue builds it); it reports `skip` with
 * the summary "not run", as the catalogue-core issue asks.
 */
import { skip, type Check } from '../check.js';

export const safety: Check = {
  id: 'safety',
  name: 'Safety scan',
  run() {
    return skip('not run');
  },
};
