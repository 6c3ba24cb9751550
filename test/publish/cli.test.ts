import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startS3Server } from '../helpers/s3-server.js';
import { makeTempDir } from '../helpers/temp.js';
import { makeCatalogue, readTreeBytes } from './fixture.js';

const BUCKET = 'catalogue';
// The SDK's standard variables, as CI sets them; s3rver's one account.
const AWS_ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

describe('loadout publish (the CLI in a child process)', () => {
  it('prints {uploaded, unchanged, deleted, bytes_uploaded} with --json, and nothing on stderr: no SDK warning', async () => {
    // The child inherits this process's environment: without the SDK's switch here, only the CLI can keep the warning out.
    expect(process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED']).toBeUndefined();
    const s3 = await startS3Server([BUCKET]);
    const { root, out } = await makeCatalogue();
    const tree = readTreeBytes(out);

    const first = await runCli(['publish', '--out', out, '--bucket', BUCKET, '--endpoint', s3.endpoint, '--force-path-style', '--json'], root, AWS_ENV);

    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ uploaded: tree.size, unchanged: 0, deleted: 0, bytes_uploaded: [...tree.values()].reduce((n, b) => n + b.byteLength, 0) });
    expect(await s3.listKeys(BUCKET)).toEqual(['.loadout-publish.json', ...tree.keys()].sort());

    // The endpoint from AWS_ENDPOINT_URL_S3 (the SDK's chain), and a missing bucket: a loadout message with a hint, exit 1.
    const missing = await runCli(['publish', '--out', out, '--bucket', 'no-such-bucket', '--force-path-style'], root, { ...AWS_ENV, AWS_ENDPOINT_URL_S3: s3.endpoint });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      `loadout: bucket "no-such-bucket" does not exist (s3://no-such-bucket at ${s3.endpoint})\n` +
        'loadout: hint: create the bucket first, or check --bucket, --endpoint (AWS_ENDPOINT_URL_S3) and --region (AWS_REGION)\n',
    );
  });

  it('refuses a --plugins-branch that is no plain branch name, exit 2, before anything is uploaded or pushed; pushes a good one', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { root, out } = await makeCatalogue();
    const bare = makeTempDir();
    execFileSync('git', ['init', '--quiet', '--bare', bare]);
    const refs = (): string => execFileSync('git', ['--git-dir', bare, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' });
    const publish = (branch: string): ReturnType<typeof runCli> => runCli(['publish', '--out', out, '--bucket', BUCKET, '--endpoint', s3.endpoint, '--force-path-style', '--plugins-remote', bare, '--plugins-branch', branch], root, AWS_ENV);
    const expected = '(expected a plain branch name that git accepts (git check-ref-format --branch), such as plugins, not HEAD and not starting with "-", "+" or "refs/")';
    for (const [branch, why] of [
      ['HEAD', "names git's current commit, not a branch"],
      ['-x', 'starts with "-", which git reads as an option'],
      ['+main', 'starts with "+", which a push reads as a forced update'],
      ['refs/tags/v1', 'is a full ref name, which would be pushed as refs/heads/refs/…'],
      ['a..b', 'is not a branch name git accepts (git check-ref-format --branch refuses it)'],
    ] as const) {
      const refused = await publish(branch);
      expect({ branch, code: refused.code, stdout: refused.stdout, stderr: refused.stderr }).toEqual({ branch, code: 2, stdout: '', stderr: `loadout: --plugins-branch is ${JSON.stringify(branch)}, which ${why} ${expected}\n` });
    }
    expect(await s3.listKeys(BUCKET)).toEqual([]);
    expect(refs()).toBe('');

    const good = await publish('team/plugins');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/\nplugins: pushed [0-9a-f]{12} to branch team\/plugins of /u);
    expect(refs()).toBe('refs/heads/team/plugins\n');
  });
});
