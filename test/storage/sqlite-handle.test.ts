import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteHandle, runPragma } from '../../src/storage/sqlite-handle.js';
import { makeTempDir } from '../helpers/temp.js';

const TSX = new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname;
const MODULE = new URL('../../src/storage/sqlite-handle.ts', import.meta.url).pathname;

describe('openSqliteHandle', () => {
  it('answers the same SQL text with the same statement, and runs pragmas through it', () => {
    const database = openSqliteHandle(':memory:');
    database.exec('create table t (a integer)');
    const insert = database.prepare('insert into t (a) values (?)');
    expect(database.prepare('insert into t (a) values (?)')).toBe(insert);
    insert.run(1);
    insert.run(2);
    expect(database.prepare('select a from t order by a').all()).toEqual([{ a: 1 }, { a: 2 }]);
    expect(runPragma(database, 'foreign_keys = ON')).toEqual([]);
    expect(runPragma(database, 'foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    expect(database.prepare('PRAGMA foreign_keys')).toBe(database.prepare('PRAGMA foreign_keys'));
    database.close();
  });

  it('refuses a file that is not a database with better-sqlite3\'s error', () => {
    const file = join(makeTempDir(), 'not.db');
    writeFileSync(file, 'x'.repeat(4096));
    expect(() => openSqliteHandle(file).prepare('select 1 from sqlite_schema').get()).toThrow(expect.objectContaining({ code: 'SQLITE_NOTADB' }));
  });

  // better-sqlite3 12 on Node 24 aborted the process here ("Assertion failed: (env) != nullptr"
  // in Statement::~Statement) within 200 turns when each statement was prepared anew. Node 20
  // and 22 never aborted; the GitHub matrix runs this on 24.
  it('survives many queries and databases, opened and closed, across garbage collections', () => {
    const script = join(makeTempDir(), 'stress.ts');
    writeFileSync(script, `import { openSqliteHandle, runPragma } from ${JSON.stringify(MODULE)};
let turn = 0;
const next = (): void => {
  const database = openSqliteHandle(':memory:');
  runPragma(database, 'journal_mode = WAL');
  database.exec('create table t (a integer)');
  for (let i = 0; i < 2000; i++) database.prepare(\`select \${i % 50} as n from t\`).all();
  database.close();
  if (++turn < 200) setImmediate(next);
  else console.log('done');
};
next();
`);
    const run = spawnSync(process.execPath, [TSX, script], { encoding: 'utf8', timeout: 120_000 });
    expect({ status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr.slice(0, 2000) }).toEqual({ status: 0, signal: null, stdout: 'done\n', stderr: '' });
  });
});
