/**
 * What a local (stdio) MCP server starts: the package a launcher fetches, from which registry,
 * at which version, and whether that version is pinned exactly (issue 54, point 1). Read from
 * the command and its arguments as written, the way each launcher reads them:
 *
 * | launcher | registry | package argument | exact version | source |
 * |---|---|---|---|---|
 * | `npx`, `pnpx`, `bunx`, `pnpm dlx`, `yarn dlx`, `npm exec` | npm | first argument that is not an option, or `--package`/`-p` | `name@1.2.3` | docs.npmjs.com/cli/commands/npx, pnpm.io/cli/dlx, bun.sh/docs/cli/bunx |
 * | `uvx`, `uv tool run` | PyPI | first argument, or `--from` | `name==1.2.3`, `name@1.2.3` | docs.astral.sh/uv/guides/tools |
 * | `pipx run` | PyPI | first argument, or `--spec` | `name==1.2.3` | pipx.pypa.io/stable/docs |
 * | `docker run`, `podman run` | OCI | first argument after the options | a digest, `image@sha256:…` (a tag can be moved) | docs.docker.com/reference/cli/docker/container/run |
 *
 * Any other command is a local program: a path (`./server.js`, `/opt/x`), an interpreter with a
 * script (`node server.js`, `python -m pkg`), or a program on `PATH`. Package URLs follow the
 * purl specification (github.com/package-url/purl-spec, PURL-TYPES: npm, pypi, oci). Pure.
 */
import type { McpPackage } from '../tree-format/capabilities.js';

/** Options of each launcher that take a value (the next argument), so that the value is not read as the package. */
const NPX_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '--cache', '--registry', '--userconfig', '-w', '--workspace', '--prefix', '--node-options']);
const UVX_VALUE_OPTIONS = new Set(['--from', '--with', '--with-editable', '--with-requirements', '--python', '-p', '--index', '--index-url', '--extra-index-url', '--default-index', '--find-links', '-f', '--directory', '--project', '--config-file', '--cache-dir', '--constraints', '-c', '--overrides', '--env-file', '--python-preference', '--index-strategy', '--keyring-provider', '--resolution', '--prerelease', '--exclude-newer', '--refresh-package', '--reinstall-package', '--upgrade-package', '-P', '--color', '--build-constraints']);
const PIPX_VALUE_OPTIONS = new Set(['--spec', '--python', '--pip-args', '--index-url', '-i', '--extra-index-url', '--fetch-missing-python']);
const DOCKER_VALUE_OPTIONS = new Set([
  '-e', '--env', '--env-file', '-v', '--volume', '--mount', '-p', '--publish', '--name', '--network', '--net', '-w', '--workdir', '-u', '--user', '--entrypoint', '--platform', '--pull', '-l', '--label',
  '--label-file', '--cpus', '-m', '--memory', '--memory-swap', '--add-host', '--cap-add', '--cap-drop', '--device', '--dns', '--hostname', '-h', '--ipc', '--log-driver', '--log-opt', '--restart', '--runtime',
  '--security-opt', '--shm-size', '--stop-signal', '--stop-timeout', '--tmpfs', '--ulimit', '--volumes-from', '--gpus', '--cidfile', '--expose', '--group-add', '--health-cmd', '--isolation', '--link', '--pid', '--userns', '--uts', '--cgroupns', '--attach', '-a',
]);

/** An exact npm version: `1.2.3`, `1.2.3-beta.1`, `1.2.3+build` (semver.org 2.0.0), optionally `=` or `v` first. */
const EXACT_SEMVER = /^[=v]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/u;
/** An exact PyPI version after `==` (PEP 440 public versions, no wildcard). */
const EXACT_PEP440 = /^(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?$/iu;
/** An OCI digest (github.com/opencontainers/image-spec, descriptor.md). */
const OCI_DIGEST = /^sha256:[0-9a-f]{64}$/u;

/** The base name of a command: `/usr/bin/npx` → `npx`, `npx.cmd` → `npx`. */
function programName(command: string): string {
  const base = command.split(/[\\/]/u).pop() ?? command;
  return base.replace(/\.(?:cmd|exe|bat|ps1)$/iu, '').toLowerCase();
}

/** The first argument that is not an option (nor an option's value), its index, and the value of `valueOf` options. */
function firstOperand(args: readonly string[], valueOptions: ReadonlySet<string>, wanted: readonly string[] = []): { operand: string | undefined; values: Map<string, string> } {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return { operand: args[i + 1], values };
    if (arg.startsWith('-')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (eq >= 0) {
        if (wanted.includes(name)) values.set(name, arg.slice(eq + 1));
        continue;
      }
      if (valueOptions.has(name)) {
        if (wanted.includes(name) && args[i + 1] !== undefined) values.set(name, args[i + 1] ?? '');
        i++;
      }
      continue;
    }
    return { operand: arg, values };
  }
  return { operand: undefined, values };
}

/** `@scope/name@1.2.3` → name and version (npm's `name@spec`; a scope's leading `@` is not a separator). */
function splitNpmSpec(spec: string): { name: string; version: string | null } {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at < 0 ? { name: spec, version: null } : { name: spec.slice(0, at), version: spec.slice(at + 1) || null };
}

/** `name==1.2.3`, `name@1.2.3`, `name>=1`, `name[extra]==1` → name (extras dropped) and the version part as written. */
function splitPythonSpec(spec: string): { name: string; version: string | null; pinned: boolean } {
  const trimmed = spec.trim();
  const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/u.exec(trimmed)?.[0] ?? trimmed;
  const rest = trimmed.slice(name.length).replace(/^\[[^\]]*\]/u, '').trim();
  if (rest === '') return { name, version: null, pinned: false };
  if (rest.startsWith('==') && !rest.startsWith('===')) {
    const version = rest.slice(2).trim();
    return { name, version: rest, pinned: EXACT_PEP440.test(version) };
  }
  if (rest.startsWith('@')) {
    const version = rest.slice(1).trim();
    return { name, version: rest, pinned: EXACT_PEP440.test(version) };
  }
  return { name, version: rest, pinned: false };
}

/** A PyPI name as PEP 503 normalises it (lower case, runs of `-_.` as one `-`), which purl's pypi type asks for. */
function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/gu, '-');
}

/** `registry.example.com:5000/team/image:tag@sha256:…` → image, tag and digest. */
function splitImage(ref: string): { name: string; tag: string | null; digest: string | null } {
  const at = ref.indexOf('@');
  const digest = at < 0 ? null : ref.slice(at + 1);
  const named = at < 0 ? ref : ref.slice(0, at);
  const slash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  const tag = colon > slash ? named.slice(colon + 1) : null;
  return { name: colon > slash ? named.slice(0, colon) : named, tag, digest };
}

const encode = (text: string): string => encodeURIComponent(text);

/** The purl of an npm package: `pkg:npm/%40scope/name@version` (the scope's `@` percent-encoded, as purl-spec's npm examples write it). */
function npmPurl(name: string, version: string | null): string {
  const [scope, bare] = name.startsWith('@') && name.includes('/') ? [name.slice(0, name.indexOf('/')), name.slice(name.indexOf('/') + 1)] : [undefined, name];
  const path = scope === undefined ? encode(bare) : `${encode(scope)}/${encode(bare)}`;
  return `pkg:npm/${path}${version === null ? '' : `@${encode(version)}`}`;
}

/** The purl of an OCI image: `pkg:oci/name@sha256%3A…?repository_url=…&tag=…` (purl-spec PURL-TYPES "oci": the name is the last path segment). */
function ociPurl(image: string, tag: string | null, digest: string | null): string {
  const slash = image.lastIndexOf('/');
  const name = (slash < 0 ? image : image.slice(slash + 1)).toLowerCase();
  const firstSegment = image.split('/')[0] ?? '';
  const hasRegistry = image.includes('/') && (firstSegment.includes('.') || firstSegment.includes(':') || firstSegment === 'localhost');
  const repository = hasRegistry ? image : `docker.io/${image.includes('/') ? image : `library/${image}`}`;
  const qualifiers = [`repository_url=${encode(repository.toLowerCase())}`, ...(tag === null ? [] : [`tag=${encode(tag)}`])];
  return `pkg:oci/${encode(name)}${digest === null ? '' : `@${encode(digest)}`}?${qualifiers.join('&')}`;
}

/**
 * What `command args` starts (see the module comment): the package, its registry, version and
 * pin, and its purl; a local program when the command is no launcher this module knows, or a
 * launcher without a package argument. Pure; never throws.
 */
export function describeLaunch(command: string, args: readonly string[]): McpPackage {
  const program = programName(command);
  const [sub, ...after] = args;
  if (program === 'npx' || program === 'pnpx' || program === 'bunx' || (program === 'pnpm' && sub === 'dlx') || (program === 'yarn' && sub === 'dlx') || (program === 'npm' && sub === 'exec')) {
    const launcher = program === 'npx' || program === 'pnpx' || program === 'bunx' ? program : `${program} ${sub ?? ''}`;
    const rest = launcher === program ? args : after;
    const { operand, values } = firstOperand(rest, NPX_VALUE_OPTIONS, ['-p', '--package']);
    const spec = values.get('--package') ?? values.get('-p') ?? operand;
    if (spec !== undefined) {
      const { name, version } = splitNpmSpec(spec);
      return { registry: 'npm', name, version, pinned: version !== null && EXACT_SEMVER.test(version), launcher, purl: npmPurl(name, version) };
    }
  }
  if (program === 'uvx' || (program === 'uv' && (sub === 'tool' && after[0] === 'run'))) {
    const rest = program === 'uvx' ? args : after.slice(1);
    const { operand, values } = firstOperand(rest, UVX_VALUE_OPTIONS, ['--from']);
    const spec = values.get('--from') ?? operand;
    if (spec !== undefined) return pypiPackage(spec, program === 'uvx' ? 'uvx' : 'uv tool run');
  }
  if (program === 'pipx' && sub === 'run') {
    const { operand, values } = firstOperand(after, PIPX_VALUE_OPTIONS, ['--spec']);
    const spec = values.get('--spec') ?? operand;
    if (spec !== undefined) return pypiPackage(spec, 'pipx run');
  }
  if ((program === 'docker' || program === 'podman') && (sub === 'run' || (sub === 'container' && after[0] === 'run'))) {
    const rest = sub === 'run' ? after : after.slice(1);
    const { operand } = firstOperand(rest, DOCKER_VALUE_OPTIONS);
    if (operand !== undefined) {
      const { name, tag, digest } = splitImage(operand);
      const pinned = digest !== null && OCI_DIGEST.test(digest);
      return { registry: 'oci', name, version: digest ?? tag, pinned, launcher: `${program} run`, purl: ociPurl(name, tag, digest) };
    }
  }
  return { registry: 'local', name: localProgram(command, args), version: null, pinned: false, launcher: null };
}

function pypiPackage(spec: string, launcher: string): McpPackage {
  const { name, version, pinned } = splitPythonSpec(spec);
  const exact = pinned && version !== null ? version.replace(/^(?:==|@)/u, '').trim() : null;
  return { registry: 'pypi', name, version, pinned, launcher, purl: `pkg:pypi/${encode(normalizePypiName(name))}${exact === null ? '' : `@${encode(exact)}`}` };
}

/** Interpreters whose first argument is the program they run (`node server.js`, `python -m pkg`). */
const INTERPRETERS = /^(?:node|deno|bun|python\d?(?:\.\d+)?|py|ruby|perl|php|java|dotnet|bash|sh|zsh|pwsh|powershell)$/u;

/** The program a local server runs: the script an interpreter runs (`node ./server.js` → `node ./server.js`), else the command. */
function localProgram(command: string, args: readonly string[]): string {
  if (!INTERPRETERS.test(programName(command))) return command;
  const script = args.find((a) => !a.startsWith('-'));
  const module = args[0] === '-m' && args[1] !== undefined ? `-m ${args[1]}` : undefined;
  return module !== undefined ? `${command} ${module}` : script === undefined ? command : `${command} ${script}`;
}
