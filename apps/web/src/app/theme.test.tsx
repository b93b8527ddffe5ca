import { cleanup, render } from '@testing-library/react';
import { theme as antdTheme, ConfigProvider } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTimeAlgorithm, theme } from './theme';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The seed the build computes the map tokens for (vite.config.ts, `antdMapToken`). */
const buildSeed = () => ({ ...antdTheme.defaultSeed, ...theme.token });

function Probe({ onToken }: { onToken: (colorPrimaryBg: string) => void }) {
  onToken(antdTheme.useToken().token.colorPrimaryBg);
  return null;
}

function colorPrimaryBgUnder(config: typeof theme): string {
  let seen = '';
  render(
    <ConfigProvider theme={config}>
      <Probe
        onToken={(value) => {
          seen = value;
        }}
      />
    </ConfigProvider>,
  );
  return seen;
}

describe('the theme’s map tokens computed at build time', () => {
  it('are what antd uses under the app’s ConfigProvider: antd hands the algorithm the seed the build used', () => {
    const seed = buildSeed();
    // A marked map: the token read back can only have come from it.
    const map = { ...antdTheme.defaultAlgorithm(seed), colorPrimaryBg: '#0a0b0c' };
    vi.stubGlobal('__KYFW_ANTD_MAP_TOKEN__', { seed, map });
    expect(colorPrimaryBgUnder({ ...theme, token: { ...theme.token } })).toBe('#0a0b0c');
  });

  it('equal antd’s own derivation of that seed, and another seed is derived as antd does it', () => {
    const seed = buildSeed();
    vi.stubGlobal('__KYFW_ANTD_MAP_TOKEN__', { seed, map: antdTheme.defaultAlgorithm(seed) });
    expect(buildTimeAlgorithm(seed)).toEqual(antdTheme.defaultAlgorithm(seed));
    const other = { ...seed, colorPrimary: '#aa3300' };
    expect(buildTimeAlgorithm(other)).toEqual(antdTheme.defaultAlgorithm(other));
    expect(buildTimeAlgorithm(other).colorPrimary).toBe('#aa3300');
  });

  it('are derived by antd when the bundle has none (tests, the development server)', () => {
    const seed = buildSeed();
    expect(buildTimeAlgorithm(seed)).toEqual(antdTheme.defaultAlgorithm(seed));
  });
});
