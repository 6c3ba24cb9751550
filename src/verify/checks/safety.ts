/**
 * `safety`: credentials (secretlint's recommended rules), risky shell commands, hidden text
 * (bidi controls, zero-width and tag characters, instructions in HTML comments), network use
 * that `security.network` does not declare, and scripts missing from `security.scripts` (spec
 * "Verification"; DESIGN.md section 4). Every finding names a line. `loadout.yaml` is scanned
 * for credentials and hidden characters. A blocking finding fails the check; notices (the
 * system package manager, prose about administrator rights, a risky command shown as an example
 * of what not to do; docs/authoring.md "What the checks look for") leave it passing. The
 * record's `security.verdict` is `flagged` when the check fails or has notices.
 */
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import { judge, plural, type Check, type CheckContext, type Finding } from '../check.js';
import { ADMIN_NEEDLES, findAdminRights } from '../safety/admin-rights.js';
import { findHiddenInstructions, findInvisibleCharacters } from '../safety/hidden-text.js';
import { findNetworkUse, mcpServerNetworkUse, NETWORK_NEEDLES, undeclaredNetworkFinding } from '../safety/network.js';
import { prepareScanText } from '../safety/scan-text.js';
import { isScript } from '../../capabilities/scripts.js';
import { findRiskyShell, SHELL_NEEDLES } from '../safety/shell-rules.js';
import { NeedleSet } from '../text/needles.js';
import { mcpServerEntries } from '../mcp/servers.js';
import { consentFindings } from '../consent-findings.js';

/** The shell, administrator-rights and network rules' needles, searched for in one pass over each file. */
const NEEDLES = new NeedleSet([...SHELL_NEEDLES.needles, ...ADMIN_NEEDLES.needles, ...NETWORK_NEEDLES.needles]);

export const safety: Check = {
  id: 'safety',
  name: 'Safety scan',
  async run(context) {
    const findings: Finding[] = [];
    const manifest = context.manifest;
    const declaresNetwork = manifest?.security.network ?? true;
    const listedScripts = new Set(manifest?.security.scripts ?? []);
    let scanned = 0;
    const scans = [];
    for (const path of context.source.files.keys()) {
      const view = context.view(path);
      if (view === undefined) continue; // `parse` reports files that are not text
      const { text } = view;
      scanned++;
      const scan = prepareScanText(path, text, view);
      scans.push(scan);
      scan.view.needles(NEEDLES); // answers the shell and network rules' searches below
      const script = isScript(path, text);
      const shell = findRiskyShell(scan);
      findings.push(...shell, ...findAdminRights(scan, new Set(shell.map((f) => f.line ?? 0))), ...findInvisibleCharacters(scan), ...findHiddenInstructions(scan));
      if (!declaresNetwork) {
        const use = findNetworkUse(scan);
        if (use !== undefined) findings.push(undeclaredNetworkFinding(path, use.line, use.what));
      }
      if (manifest !== undefined && script && !listedScripts.has(path)) {
        findings.push({ file: path, line: 1, rule: 'scripts/unlisted', message: `is a script but is not listed in security.scripts (expected "${path}" in security.scripts of loadout.yaml)`, hint: 'List every script so that users can review what runs.' });
      }
    }
    // The manifest's text is published too (summary, description, notes): no secrets or hidden characters there either.
    const credentialFiles = scans.map(({ path, text }) => ({ path, text }));
    if (context.source.manifestText !== undefined) {
      scanned++;
      findings.push(...findInvisibleCharacters(prepareScanText(MANIFEST_FILE, context.source.manifestText)));
      credentialFiles.push({ path: MANIFEST_FILE, text: context.source.manifestText });
    }
    findings.push(...(await context.scanCredentials(credentialFiles)));
    if (!declaresNetwork) findings.push(...undeclaredMcpNetwork(context));
    findings.push(...unknownListedScripts(context));
    // Hooks, permission modes and wildcard grants of skills and subagents need the user's consent (capabilities/consent.ts).
    findings.push(...consentFindings(context, ['hook', 'permission-mode', 'wildcard-grant']));
    findings.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1));
    // With notices, "no risky shell" would not be true: the summary says only that nothing blocks.
    const clean = findings.length === 0 ? 'no credentials, risky shell, hidden text or undeclared network use' : 'nothing that blocks publishing';
    return judge(findings, `${plural(scanned, 'file')} scanned: ${clean}`, (n) => plural(n, 'safety finding'));
  },
};

function undeclaredMcpNetwork(context: CheckContext): Finding[] {
  const findings: Finding[] = [];
  for (const server of mcpServerEntries(context)) {
    const why = mcpServerNetworkUse(server.config);
    if (why !== undefined) findings.push(undeclaredNetworkFinding(server.file, server.line, `MCP server "${server.name}" ${why}`));
  }
  return findings;
}

function unknownListedScripts(context: CheckContext): Finding[] {
  const scripts = context.manifest?.security.scripts ?? [];
  return scripts.flatMap((path, index): Finding[] =>
    context.source.files.has(path)
      ? []
      : [{ file: MANIFEST_FILE, line: context.manifestYaml?.lineOf(`/security/scripts/${index}`), pointer: `/security/scripts/${index}`, rule: 'scripts/unknown-listed', message: `security.scripts lists "${path}", which is not a file of the loadout (expected paths of the loadout's scripts)` }],
  );
}
