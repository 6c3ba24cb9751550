/**
 * Real-world content (issue 3, point 8): each of the 160 corpus items (80 skill folders, 40
 * instructions files, 40 agent files from github/awesome-copilot, see ../shared/corpus/README.md)
 * is wrapped in a loadout (`corpus-loadouts.ts`: scripts listed, `security.network: false`)
 * and checked. The expected flags below were each read and judged true findings: network use
 * that the wrapper's record does not declare (package installs, downloads, git remotes, HTTP
 * clients), `sudo`, zero-width characters, files over the size limits, a subagent without a
 * description, and rules that Cursor or Copilot would not apply. Any other flag is a regression.
 * Set LOADOUT_REQUIRE_CORPUS=1 to fail instead of skipping when the corpus is missing.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCatalogue } from '../../src/verify/catalogue.js';
import type { CheckRun } from '../../src/verify/run.js';
import { makeTempDir } from '../helpers/temp.js';
import { CORPUS_DIR, readCorpus, writeCorpusLoadout } from './corpus-loadouts.js';

/** Loadout id → failing checks (safety split by kind of finding), as judged by reading each flag. */
const EXPECTED: Record<string, string[]> = {
  'agent-apify-integration-expert': ['safety:network'],
  'agent-azure-verified-modules-owner-triage': ['safety:hidden-text,safety:network',  'size'],
  'agent-declarative-agents-architect': ['parse'],
  'agent-gem-documentation-writer': ['safety:network'],
  'agent-markdown-accessibility-assistant': ['safety:network'],
  'agent-meta-agentic-project-scaffold': ['safety:network'],
  'agent-project-documenter': ['safety:network'],
  'rule-convert-jpa-to-spring-data-cosmos': ['size'],
  'rule-copilot-sdk-java': ['size'],
  'rule-dataverse-python': ['install-paths',  'safety:network'],
  'rule-dataverse-python-agentic-workflows': ['install-paths',  'size'],
  'rule-dataverse-python-api-reference': ['install-paths'],
  'rule-dataverse-python-error-handling': ['install-paths',  'size'],
  'rule-dataverse-python-performance-optimization': ['install-paths'],
  'rule-no-heredoc': ['safety:network'],
  'rule-power-bi-custom-visuals-development': ['safety:network',  'size'],
  'rule-power-bi-dax-best-practices': ['size'],
  'rule-power-bi-security-rls-best-practices': ['size'],
  'rule-tanstack-start-shadcn-tailwind': ['safety:network'],
  'rule-typescript-mcp-server': ['safety:network'],
  'skill-agent-skill-stack': ['safety:network'],
  'skill-arize-evaluator': ['safety:network',  'size'],
  'skill-arize-experiment': ['safety:network'],
  'skill-aws-cdk-python-setup': ['safety:network'],
  'skill-breakdown-plan': ['size'],
  'skill-convert-excel-to-md': ['safety:network,safety:shell'],
  'skill-create-spring-boot-java-project': ['safety:network'],
  'skill-datanalysis-credit-risk': ['size'],
  'skill-fluentui-blazor': ['safety:network'],
  'skill-foundry-hosted-agent-copilotkit': ['safety:network'],
  'skill-freecad-scripts': ['size'],
  'skill-github-codespaces-efficiency': ['safety:network'], // gh repo view, gh api: calls GitHub
  'skill-github-copilot-starter': ['safety:network'],
  'skill-github-release': ['safety:network'],
  'skill-microsoft-agent-framework': ['safety:network'],
  'skill-microsoft-docs': ['safety:network'],
  'skill-namecheap': ['safety:network'],
  'skill-pester-migration': ['safety:network'],
  'skill-publish-to-pages': ['safety:network'],
  'skill-python-mcp-server-generator': ['safety:network'],
  'skill-qdrant-clients-sdk': ['safety:network'],
  'skill-rust-mcp-server-generator': ['size'],
  'skill-setup-my-iq': ['size'],
  'skill-swift-mcp-server-generator': ['size'],
};

function safetyKinds(run: CheckRun, details: readonly string[]): string {
  const kinds = new Set(
    run.diagnostics
      .filter((d) => details.some((x) => x.includes(d.message)))
      .map((d) => (/uses the network/u.test(d.message) ? 'safety:network' : /credential/u.test(d.message) ? 'safety:credential' : /hidden|invisible|bidirectional|tag char/u.test(d.message) ? 'safety:hidden-text' : /script but/u.test(d.message) ? 'safety:scripts' : 'safety:shell')),
  );
  return [...kinds].sort().join(',');
}

const present = existsSync(CORPUS_DIR);
if (!present && process.env['LOADOUT_REQUIRE_CORPUS'] === undefined) {
  console.warn(`corpus test skipped: no corpus at ${CORPUS_DIR} (set LOADOUT_CORPUS_DIR, or LOADOUT_REQUIRE_CORPUS=1 to fail)`);
}

describe.skipIf(!present && process.env['LOADOUT_REQUIRE_CORPUS'] === undefined)('real-world corpus', () => {
  it('flags exactly the items judged to have real problems, and no others', { timeout: 120_000 }, async () => {
    expect(present, `no corpus at ${CORPUS_DIR}`).toBe(true);
    const items = readCorpus();
    expect(items.length).toBe(160);
    const root = makeTempDir('loadout-corpus-');
    for (const item of items) writeCorpusLoadout(root, item);
    const runs = await checkCatalogue({ root }, []);
    const flagged: Record<string, string[]> = {};
    for (const run of runs) {
      const failing = run.results.filter((r) => r.status === 'fail').map((r) => (r.id === 'safety' ? safetyKinds(run, r.details) : r.id));
      if (failing.length > 0) flagged[run.source.id] = failing;
    }
    expect(flagged).toEqual(EXPECTED);
    // Every finding names a line.
    for (const run of runs) for (const d of run.diagnostics) if (!d.file.endsWith('loadout.yaml')) expect(d.line, `${d.file}: ${d.message}`).toBeTypeOf('number');
  });
});
