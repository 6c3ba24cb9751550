/** What a local MCP server starts: package, registry, version, pin and purl, per launcher (capabilities/launchers.ts). */
import { describe, expect, it } from 'vitest';
import { describeLaunch } from '../../src/capabilities/launchers.js';

describe('describeLaunch', () => {
  it.each([
    ['npx', ['-y', '@upstash/context7-mcp'], { registry: 'npm', name: '@upstash/context7-mcp', version: null, pinned: false, launcher: 'npx', purl: 'pkg:npm/%40upstash/context7-mcp' }],
    ['npx', ['-y', '@scope/server@1.2.3', '--flag'], { registry: 'npm', name: '@scope/server', version: '1.2.3', pinned: true, launcher: 'npx', purl: 'pkg:npm/%40scope/server@1.2.3' }],
    ['npx', ['--yes', 'kit-docs@^2'], { registry: 'npm', name: 'kit-docs', version: '^2', pinned: false, launcher: 'npx' }],
    ['npx', ['-p', 'real-pkg@3.0.0', 'bin-name'], { registry: 'npm', name: 'real-pkg', version: '3.0.0', pinned: true }],
    ['/usr/local/bin/npx.cmd', ['x@1.0.0-beta.2'], { registry: 'npm', name: 'x', version: '1.0.0-beta.2', pinned: true }],
    ['bunx', ['srv@latest'], { registry: 'npm', name: 'srv', version: 'latest', pinned: false, launcher: 'bunx' }],
    ['pnpm', ['dlx', 'srv@1.0.0'], { registry: 'npm', name: 'srv', pinned: true, launcher: 'pnpm dlx' }],
    ['uvx', ['postgres-mcp', '--access-mode=restricted'], { registry: 'pypi', name: 'postgres-mcp', version: null, pinned: false, launcher: 'uvx', purl: 'pkg:pypi/postgres-mcp' }],
    ['uvx', ['--from', 'mcp-server-git==0.6.2', 'mcp-server-git'], { registry: 'pypi', name: 'mcp-server-git', version: '==0.6.2', pinned: true, purl: 'pkg:pypi/mcp-server-git@0.6.2' }],
    ['uvx', ['Some_Pkg@1.4'], { registry: 'pypi', name: 'Some_Pkg', version: '@1.4', pinned: true, purl: 'pkg:pypi/some-pkg@1.4' }],
    ['uvx', ['--python', '3.12', 'tool>=1'], { registry: 'pypi', name: 'tool', version: '>=1', pinned: false }],
    ['uv', ['tool', 'run', 'thing==2.0'], { registry: 'pypi', name: 'thing', pinned: true, launcher: 'uv tool run' }],
    ['pipx', ['run', '--spec', 'pkg[extra]==1.0', 'cmd'], { registry: 'pypi', name: 'pkg', version: '==1.0', pinned: true, launcher: 'pipx run' }],
    ['docker', ['run', '-i', '--rm', '-e', 'TOKEN', 'ghcr.io/github/github-mcp-server'], { registry: 'oci', name: 'ghcr.io/github/github-mcp-server', version: null, pinned: false, launcher: 'docker run', purl: 'pkg:oci/github-mcp-server?repository_url=ghcr.io%2Fgithub%2Fgithub-mcp-server' }],
    ['docker', ['run', '-i', 'mcp/fetch:1.2'], { registry: 'oci', name: 'mcp/fetch', version: '1.2', pinned: false, purl: 'pkg:oci/fetch?repository_url=docker.io%2Fmcp%2Ffetch&tag=1.2' }],
    ['podman', ['run', `alpine@sha256:${'a'.repeat(64)}`], { registry: 'oci', name: 'alpine', version: `sha256:${'a'.repeat(64)}`, pinned: true, launcher: 'podman run', purl: `pkg:oci/alpine@sha256%3A${'a'.repeat(64)}?repository_url=docker.io%2Flibrary%2Falpine` }],
    ['node', ['./server.js'], { registry: 'local', name: 'node ./server.js', version: null, pinned: false, launcher: null }],
    ['python', ['-m', 'my_server'], { registry: 'local', name: 'python -m my_server', pinned: false }],
    ['postgres-mcp', [], { registry: 'local', name: 'postgres-mcp', pinned: false }],
    ['npx', [], { registry: 'local', name: 'npx' }],
  ] as [string, string[], Record<string, unknown>][])('%s %j', (command, args, expected) => {
    expect(describeLaunch(command, args)).toMatchObject(expected);
  });
});
