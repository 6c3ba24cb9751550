// Runs the CLI from source (through tsx) so tests exercise the code under test, not lib/.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv);
