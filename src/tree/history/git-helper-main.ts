/**
 * The helper process of git-helper.ts: runs the git commands its parent sends over the IPC
 * channel (git-helper.ts `HelperRequest`) and sends back what they said (`HelperReply`). It
 * imports nothing of the build, so it stays small, and its `fork` for each git process costs
 * what a small process's does. It exits when its parent goes.
 */
import { gitIn, spawnPipe, type GitCommands, type GitPipe } from './git-commands.js';
import type { HelperReply, HelperRequest } from './git-helper.js';

const folders = new Map<string, GitCommands>();
const pipes = new Map<number, GitPipe>();
const reply = (message: HelperReply): void => {
  process.send?.(message);
};

process.on('message', (request: HelperRequest) => {
  switch (request.kind) {
    case 'raw': {
      let git = folders.get(request.cwd);
      if (git === undefined) folders.set(request.cwd, (git = gitIn(request.cwd)));
      git.raw(request.args).then(
        (out) => reply({ kind: 'raw', id: request.id, out }),
        (error: unknown) => reply({ kind: 'raw', id: request.id, error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    case 'pipe': {
      const pipe = spawnPipe(request.cwd, request.args);
      pipes.set(request.id, pipe);
      pipe.onData((chunk) => reply({ kind: 'data', id: request.id, chunk }));
      pipe.onExit((code, error) => {
        pipes.delete(request.id);
        reply({ kind: 'exit', id: request.id, code, ...(error === undefined ? {} : { error: error.message }) });
      });
      return;
    }
    case 'write':
      pipes.get(request.id)?.write(request.text);
      return;
    case 'end':
      pipes.get(request.id)?.end();
      return;
  }
});
// The parent went: end the pipes' input (a `cat-file --batch` then exits) and go.
process.on('disconnect', () => {
  for (const pipe of pipes.values()) pipe.end();
  process.exitCode = 0;
});
