/**
 * A Brains in a throwaway home folder, for tests: the user's real brains are never touched.
 */
import { Brains } from '../../src/brain/index.js';
import { makeTempDir } from './git-repo.js';

export interface TestBrains {
  brains: Brains;
  home: string;
  cleanup(): Promise<void>;
}

export async function makeTestBrains(): Promise<TestBrains> {
  const home = await makeTempDir('gardener-home-');
  const brains = new Brains({ home: home.dir, maxThreads: 2 });
  return {
    brains,
    home: home.dir,
    async cleanup() {
      await brains.close();
      await home.cleanup();
    },
  };
}

/** `count` source files of a few hundred bytes each, with one exported function apiece. */
export function sourceFiles(count: number, prefix = 'src/f'): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`${prefix}${i}.ts`] = `import { x } from './x.js';\n\nexport function fn${i}(a: number): number {\n  return a + ${i};\n}\n`;
  }
  return files;
}
