import { describe, expect, it } from 'vitest';
import { userCacheDir } from './version.ts';

describe('userCacheDir', () => {
  it('is XDG_CACHE_HOME/backpack on Linux when that is an absolute path, else ~/.cache/backpack', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/var/cache/u' }, 'linux', '/home/u')).toBe('/var/cache/u/backpack');
    expect(userCacheDir({}, 'linux', '/home/u')).toBe('/home/u/.cache/backpack');
    // A relative XDG_CACHE_HOME is invalid (XDG Base Directory spec) and ignored.
    expect(userCacheDir({ XDG_CACHE_HOME: 'rel/cache' }, 'linux', '/home/u')).toBe('/home/u/.cache/backpack');
  });

  it('is ~/Library/Caches/backpack on macOS and %LOCALAPPDATA%\\backpack\\Cache on Windows', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/x' }, 'darwin', '/Users/u')).toBe('/Users/u/Library/Caches/backpack');
    expect(userCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u')).toBe('C:\\Users\\u\\AppData\\Local\\backpack\\Cache');
    expect(userCacheDir({}, 'win32', 'C:\\Users\\u')).toBe('C:\\Users\\u\\AppData\\Local\\backpack\\Cache');
  });
});
