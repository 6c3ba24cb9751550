/** The marketplaces' settings `loadout build` reads from the environment (src/cli/commands/build.ts). */
import { describe, expect, it } from 'vitest';
import { readMarketplaceSettings } from '../../src/cli/commands/build.js';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { DEFAULT_MARKETPLACE } from '../../src/layout/plugin-marketplaces.js';

describe('the marketplace settings of loadout build', () => {
  it('defaults to the catalogue\'s own name and no git branch', () => {
    expect(readMarketplaceSettings({})).toEqual(DEFAULT_MARKETPLACE);
  });

  it('takes the name, owner and description, and the branch of GITHUB_REPOSITORY or LOADOUT_PLUGINS_REPOSITORY', () => {
    expect(readMarketplaceSettings({ LOADOUT_MARKETPLACE_NAME: 'acme-loadouts', LOADOUT_MARKETPLACE_OWNER: 'Acme', LOADOUT_MARKETPLACE_DESCRIPTION: 'Acme\'s loadouts.', GITHUB_REPOSITORY: 'acme/catalogue' })).toEqual({
      name: 'acme-loadouts',
      owner: { name: 'Acme' },
      description: 'Acme\'s loadouts.',
      git: { repository: 'acme/catalogue', branch: 'plugins' },
    });
    expect(readMarketplaceSettings({ GITHUB_REPOSITORY: 'acme/catalogue', LOADOUT_PLUGINS_REPOSITORY: 'https://git.acme.test/loadouts.git', LOADOUT_PLUGINS_BRANCH: 'marketplace' }).git).toEqual({ repository: 'https://git.acme.test/loadouts.git', branch: 'marketplace' });
  });

  it('refuses a name the agents\' CLIs would not take, naming the variable', () => {
    for (const name of ['Acme Loadouts', 'acme--loadouts', '-acme', 'a'.repeat(65)]) {
      const error = (() => {
        try {
          readMarketplaceSettings({ LOADOUT_MARKETPLACE_NAME: name });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(LoadoutError);
      expect((error as Error).message).toContain('LOADOUT_MARKETPLACE_NAME');
    }
  });
});
