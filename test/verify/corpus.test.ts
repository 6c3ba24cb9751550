/**
 * Real-world content (docs/authoring.md "What the checks look for"): every item of the corpus
 * (80 skill folders, 40 instructions files and 40 agent files from github/awesome-copilot, the
 * 14 skills of obra/superpowers with their scripts, 60 Cursor rules from
 * PatrickJS/awesome-cursorrules; see ../shared/corpus/README.md) is wrapped in a loadout
 * (`corpus-loadouts.ts`: scripts listed, `security.network: false`) and checked, and each
 * finding is recorded with its rule and weight (`corpus-findings.ts`; `npm run corpus:report`
 * writes them all as a table).
 *
 * Each finding below was read in that table and judged true. Blocking: network use that the
 * wrapper's record does not declare (package installs, downloads, git remotes, gh, HTTP
 * clients), a zero-width character, files over the size limits, a subagent without a
 * description, rules that Cursor or Copilot would not apply, links to sibling skills that a
 * one-skill loadout leaves out. Notices: the system package manager, prose about
 * administrator rights, a risky command in a table of vulnerable patterns. Any other finding,
 * or a missing one, is a regression to judge again.
 * Set LOADOUT_REQUIRE_CORPUS=1 to fail instead of skipping when the corpus is missing.
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { checkCorpus, type CorpusFinding } from './corpus-findings.js';
import { CORPUS_DIR } from './corpus-loadouts.js';
import { describeWith, NEEDS_CORPUS } from '../run/requirements.js';

/** Corpus item → the rules of its blocking findings, each judged true. */
const BLOCKING: Record<string, string[]> = {
  'awesome-copilot/agents/apify-integration-expert.agent.md': ['network/undeclared'],
  'awesome-copilot/agents/azure-verified-modules-owner-triage.agent.md': ['hidden-text/invisible-characters', 'network/undeclared', 'size'], // U+200B before a fence; gh and curl to GitHub's API; 41 KB
  'awesome-copilot/agents/declarative-agents-architect.agent.md': ['parse'], // no description in its front matter
  'awesome-copilot/agents/gem-documentation-writer.agent.md': ['network/undeclared'],
  'awesome-copilot/agents/markdown-accessibility-assistant.agent.md': ['network/undeclared'],
  'awesome-copilot/agents/meta-agentic-project-scaffold.agent.md': ['network/undeclared'],
  'awesome-copilot/agents/project-documenter.agent.md': ['network/undeclared'],
  'awesome-copilot/instructions/convert-jpa-to-spring-data-cosmos.instructions.md': ['size'],
  'awesome-copilot/instructions/copilot-sdk-java.instructions.md': ['size'],
  'awesome-copilot/instructions/dataverse-python-agentic-workflows.instructions.md': ['size'],
  'awesome-copilot/instructions/dataverse-python-error-handling.instructions.md': ['size'],
  'awesome-copilot/instructions/dataverse-python.instructions.md': ['network/undeclared'],
  'awesome-copilot/instructions/no-heredoc.instructions.md': ['network/undeclared'], // allows `npm install`, `git push`
  'awesome-copilot/instructions/power-bi-custom-visuals-development.instructions.md': ['network/undeclared', 'size'],
  'awesome-copilot/instructions/power-bi-dax-best-practices.instructions.md': ['size'],
  'awesome-copilot/instructions/power-bi-security-rls-best-practices.instructions.md': ['size'],
  'awesome-copilot/instructions/tanstack-start-shadcn-tailwind.instructions.md': ['network/undeclared'],
  'awesome-copilot/instructions/typescript-mcp-server.instructions.md': ['network/undeclared'],
  'awesome-copilot/skills/agent-skill-stack': ['network/undeclared'],
  'awesome-copilot/skills/arize-evaluator': ['network/undeclared', 'size'],
  'awesome-copilot/skills/arize-experiment': ['network/undeclared'],
  'awesome-copilot/skills/aws-cdk-python-setup': ['network/undeclared'], // brew install awscli
  'awesome-copilot/skills/breakdown-plan': ['size'],
  'awesome-copilot/skills/convert-excel-to-md': ['network/undeclared'], // winget, brew, sudo apt-get install
  'awesome-copilot/skills/create-spring-boot-java-project': ['network/undeclared'],
  'awesome-copilot/skills/datanalysis-credit-risk': ['size'],
  'awesome-copilot/skills/fluentui-blazor': ['network/undeclared'],
  'awesome-copilot/skills/foundry-hosted-agent-copilotkit': ['network/undeclared'], // `pip install aiohttp` in a table of fixes
  'awesome-copilot/skills/freecad-scripts': ['size'],
  'awesome-copilot/skills/github-codespaces-efficiency': ['network/undeclared'], // gh repo view, gh api: calls GitHub
  'awesome-copilot/skills/github-copilot-starter': ['network/undeclared'],
  'awesome-copilot/skills/github-release': ['network/undeclared'],
  'awesome-copilot/skills/microsoft-agent-framework': ['network/undeclared'],
  'awesome-copilot/skills/microsoft-docs': ['network/undeclared'],
  'awesome-copilot/skills/namecheap': ['network/undeclared'], // namecheap.py imports urllib.request
  'awesome-copilot/skills/pester-migration': ['network/undeclared'],
  'awesome-copilot/skills/publish-to-pages': ['network/undeclared'], // pip install; scripts/publish.sh calls gh api
  'awesome-copilot/skills/python-mcp-server-generator': ['network/undeclared'],
  'awesome-copilot/skills/qdrant-clients-sdk': ['consent/wildcard-grant', 'network/undeclared'], // allowed-tools: Bash, unrestricted, while the skill is active
  'awesome-copilot/skills/rust-mcp-server-generator': ['size'],
  'awesome-copilot/skills/setup-my-iq': ['size'], // "an elevated PowerShell", "opened as Administrator"
  'awesome-copilot/skills/swift-mcp-server-generator': ['size'],
  'awesome-cursorrules/rules/beefreeSDK-nocode-content-editor-cursorrules-prompt-file.mdc': ['network/undeclared', 'size'],
  'awesome-cursorrules/rules/cloudflare-email-telegram-cursorrules-prompt-file.mdc': ['network/undeclared'],
  'awesome-cursorrules/rules/cloudflare-workers-hono-angular-saas-cursorrules-prompt-file.mdc': ['network/undeclared'], // npx wrangler deploy
  'awesome-cursorrules/rules/convex-cursorrules-prompt-file.mdc': ['size'],
  'awesome-cursorrules/rules/netlify-official-cursorrules-prompt-file.mdc': ['network/undeclared', 'size'],
  'superpowers/skills/finishing-a-development-branch': ['network/undeclared'],
  'superpowers/skills/receiving-code-review': ['network/undeclared'],
  'superpowers/skills/subagent-driven-development': ['references', 'size'], // links a sibling skill that the one-skill wrapper leaves out; 503 lines
  'superpowers/skills/using-git-worktrees': ['network/undeclared'],
  'superpowers/skills/writing-skills': ['references', 'size'], // links a sibling skill that the one-skill wrapper leaves out; 679 lines
};

/** Corpus item → the rules of its notices, each judged a fair notice. */
const NOTICES: Record<string, string[]> = {
  'awesome-copilot/instructions/pcf-power-pages.instructions.md': ['shell/admin-rights'], // "You need system administrator privileges"
  'awesome-copilot/skills/aws-cdk-python-setup': ['shell/system-package-install'], // brew install awscli
  'awesome-copilot/skills/convert-excel-to-md': ['shell/system-package-install'], // winget, brew, sudo apt-get install
  'awesome-copilot/skills/mcp-implementation-security-review': ['shell/rm-root-or-home'], // `rm -rf /` in a table of vulnerable patterns
  'awesome-copilot/skills/publish-to-pages': ['shell/system-package-install'], // apt install / brew install poppler
  'awesome-copilot/skills/setup-my-iq': ['shell/admin-rights'], // "an elevated PowerShell", "opened as Administrator"
  // Rule files past Antigravity's 12,000 characters per rule file, as installed for it (layout/context-caps.ts): true, Antigravity reads less of them.
  'awesome-copilot/instructions/convert-jpa-to-spring-data-cosmos.instructions.md': ['size'],
  'awesome-copilot/instructions/copilot-sdk-java.instructions.md': ['size'],
  'awesome-copilot/instructions/dataverse-python-agentic-workflows.instructions.md': ['size'],
  'awesome-copilot/instructions/dataverse-python-error-handling.instructions.md': ['size'],
  'awesome-copilot/instructions/dataverse-python-performance-optimization.instructions.md': ['size'],
  'awesome-copilot/instructions/devops-core-principles.instructions.md': ['size'],
  'awesome-copilot/instructions/kubernetes-deployment-best-practices.instructions.md': ['size'],
  'awesome-copilot/instructions/oop-design-patterns.instructions.md': ['size'],
  'awesome-copilot/instructions/pcf-alm.instructions.md': ['size'],
  'awesome-copilot/instructions/power-bi-custom-visuals-development.instructions.md': ['size'],
  'awesome-copilot/instructions/power-bi-dax-best-practices.instructions.md': ['size'],
  'awesome-copilot/instructions/power-bi-security-rls-best-practices.instructions.md': ['size'],
  'awesome-copilot/instructions/vue.instructions.md': ['size'],
  'awesome-cursorrules/rules/beefreeSDK-nocode-content-editor-cursorrules-prompt-file.mdc': ['size'],
  'awesome-cursorrules/rules/convex-cursorrules-prompt-file.mdc': ['size'],
  'awesome-cursorrules/rules/github-cursorrules-prompt-file-instructions.mdc': ['size'],
  'awesome-cursorrules/rules/netlify-official-cursorrules-prompt-file.mdc': ['size'],
};

/** Item → sorted rules of its findings of one weight. */
function rulesByItem(findings: readonly CorpusFinding[], severity: CorpusFinding['severity']): Record<string, string[]> {
  const by: Record<string, Set<string>> = {};
  for (const f of findings) if (f.severity === severity) (by[f.item] ??= new Set()).add(f.rule);
  return Object.fromEntries(Object.entries(by).map(([item, rules]) => [item, [...rules].sort()]));
}

const present = existsSync(CORPUS_DIR);
if (!present && process.env['LOADOUT_REQUIRE_CORPUS'] === undefined) {
  console.warn(`corpus test skipped: no corpus at ${CORPUS_DIR} (set LOADOUT_CORPUS_DIR, or LOADOUT_REQUIRE_CORPUS=1 to fail)`);
}

describeWith(NEEDS_CORPUS)('real-world corpus', () => {
  it('finds exactly the findings judged true, blocking and notices, each on a line', { timeout: 120_000 }, async () => {
    expect(present, `no corpus at ${CORPUS_DIR}`).toBe(true);
    const { items, runs, findings } = await checkCorpus();
    const sources = items.map((i) => i.name.split('/').slice(0, 2).join('/'));
    expect(Object.fromEntries([...new Set(sources)].map((s) => [s, sources.filter((x) => x === s).length]))).toEqual({
      'awesome-copilot/agents': 40,
      'awesome-copilot/instructions': 40,
      'awesome-copilot/skills': 80,
      'awesome-cursorrules/rules': 60,
      'superpowers/skills': 14,
    });
    expect(rulesByItem(findings, 'blocking')).toEqual(BLOCKING);
    expect(rulesByItem(findings, 'notice')).toEqual(NOTICES);
    // A check fails exactly when it has a blocking finding; notices leave it passing.
    for (const run of runs) {
      for (const result of run.results) {
        const mine = (run.findings ?? []).filter((f) => f.check === result.id);
        expect(result.status === 'fail', `${run.source.id} ${result.id}`).toBe(mine.some((f) => f.severity === 'blocking'));
      }
    }
    for (const f of findings) if (f.file !== 'loadout.yaml') expect(f.line, `${f.file}: ${f.message}`).toBeTypeOf('number');
  });
});
