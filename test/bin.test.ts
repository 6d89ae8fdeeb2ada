/**
 * bin/backpack.js chooses what runs: the compiled dist/ only when it was built after the last
 * change under src/ (or there is no src/, as in an installed package); otherwise the sources
 * through tsx. Checked on a copy of the bin beside a fake src/ and dist/ that say which ran.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';

const tmp = tempDir('bin');
let root: string;
let n = 0;

const MAIN = (who: string) => `export async function main(args) { process.stdout.write('${who} ' + args.join(' ')); return 0; }\n`;

beforeEach(() => {
  root = join(tmp, String(n++));
  mkdirSync(join(root, 'bin'), { recursive: true });
  copyFileSync(join(PACKAGE_ROOT, 'bin', 'backpack.js'), join(root, 'bin', 'backpack.js'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(root, 'node_modules'));
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  writeFileSync(join(root, 'src', 'cli', 'main.ts'), MAIN('src'));
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist', 'cli', 'main.js'), MAIN('dist'));
});

const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
const ran = () => execFileSync(process.execPath, [join(root, 'bin', 'backpack.js'), 'x'], { encoding: 'utf8' });
/** Every file and folder under src/ dated `seconds`, and the build stamp `stamp`. */
function dates(seconds: number, stamp: number | null): void {
  for (const p of ['src/cli/main.ts', 'src/cli', 'src']) at(join(root, p), seconds);
  if (stamp !== null) {
    writeFileSync(join(root, 'dist', '.built-from-src'), '');
    at(join(root, 'dist', '.built-from-src'), stamp);
  }
}

describe('bin/backpack.js', () => {
  it('runs dist/ when it was built after the last change to src/', () => {
    dates(1_000_000, 1_000_010);
    expect(ran()).toBe('dist x');
  });

  it('runs the sources when a file under src/ is newer than the build', () => {
    dates(1_000_000, 1_000_010);
    at(join(root, 'src', 'cli', 'main.ts'), 1_000_020);
    expect(ran()).toBe('src x');
  });

  it('runs the sources when dist/ has no build stamp (a failed or interrupted build)', () => {
    dates(1_000_000, null);
    expect(ran()).toBe('src x');
  });

  it('runs the sources when there is no dist/', () => {
    rmSync(join(root, 'dist'), { recursive: true });
    expect(ran()).toBe('src x');
  });

  it('runs dist/ when there are no sources (an installed package)', () => {
    rmSync(join(root, 'src'), { recursive: true });
    expect(ran()).toBe('dist x');
  });
});
