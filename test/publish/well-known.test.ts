/**
 * `loadout publish` of a tree with Agent Skills discovery (DESIGN.md section 8): the
 * `.well-known` folders are published, with the headers `loadout serve` sends (skill files as
 * plain text, archives as zips, indexes as JSON), while the other dot files stay behind.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { publishTree } from '../../src/publish/publish.js';
import { createStaticServer } from '../../src/server/static.js';
import { buildDiscoveryFixture } from '../tree/render/discovery-fixture.js';
import { startS3Server } from '../helpers/s3-server.js';
import { readTreeBytes, s3Store } from './fixture.js';

const BUCKET = 'catalogue';

describe('publishing Agent Skills discovery', () => {
  it('uploads every .well-known file with the type serve sends, and no other dot file', async () => {
    const fixture = await buildDiscoveryFixture();
    onTestFinished(() => fixture.remove());
    const s3 = await startS3Server([BUCKET]);
    const result = await publishTree({ out: fixture.dist, store: s3Store(s3.endpoint, BUCKET), prefix: '', delete: false, dryRun: false, concurrency: 4 });

    const keys = await s3.listKeys(BUCKET);
    const wellKnown = keys.filter((k) => k.split('/').includes('.well-known'));
    expect(wellKnown).toEqual(expect.arrayContaining(['.well-known/agent-skills/index.json', '.well-known/skills/shared/templates/report.html', 'loadouts/alpha/.well-known/agent-skills/shared.zip', 'loadouts/alpha/.well-known/agent-skills/solo/SKILL.md', 'loadouts/plain/.well-known/agent-skills/index.json']));
    // Files as installed keep their install target's dot folders (`raw/<id>/installed/<version>/<agent>/.claude/…`, issue 57 point 11).
    expect(keys.filter((k) => k.split('/').some((s) => s.startsWith('.') && s !== '.well-known') && !/^raw\/[^/.][^/]*\/installed\/[^/.][^/]*\/[^/.][^/]*\//u.test(k))).toEqual(['.loadout-publish.json']);
    expect(result.skipped).toEqual(expect.arrayContaining(['.loadout-build.jsonl', '.complete']));

    const tree = readTreeBytes(fixture.dist);
    const serve = createStaticServer(fixture.dist);
    for (const key of wellKnown) {
      const stored = await s3.read(BUCKET, key);
      expect(stored.body.equals(tree.get(key) as Buffer), key).toBe(true);
      const served = await serve.serve(new Request(`http://x/${key}`), `/${key}`);
      expect(served.status, key).toBe(200);
      expect(stored.contentType, key).toBe(served.headers.get('content-type'));
    }
    expect((await s3.read(BUCKET, '.well-known/skills/shared/templates/report.html')).contentType).toBe('text/plain; charset=utf-8');
    expect((await s3.read(BUCKET, 'loadouts/alpha/.well-known/agent-skills/shared.zip')).contentType).toBe('application/zip');
  });
});
