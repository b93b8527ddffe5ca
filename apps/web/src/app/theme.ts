import { Z_INDEX } from '@kyfw/contracts';
import { theme as antdTheme, type ThemeConfig } from 'antd';

/** Colours shared by the antd theme and the stylesheet (see styles/global.css custom properties). */
export const palette = {
  primary: '#1d4f91',
  primaryHover: '#2a62ad',
  accent: '#e0a526',
  success: '#2f9e6e',
  warning: '#d98b19',
  error: '#d64545',
  text: '#1f2a3d',
  textSecondary: '#5b6577',
  border: '#dde4ee',
  bgLayout: '#f5f7fb',
  /** Selected rows, active options: a light tint of the primary, not antd's derived grey. */
  itemActive: '#e8f0fb',
  itemActiveHover: '#dbe7f7',
} as const;

type MapToken = ReturnType<typeof antdTheme.defaultAlgorithm>;
type SeedToken = Parameters<typeof antdTheme.defaultAlgorithm>[0];

/**
 * antd's default algorithm, its result for this theme's seed computed once at build time
 * (vite.config.ts, `antdMapToken`, as `__KYFW_ANTD_MAP_TOKEN__`): the colour palettes and sizes it
 * derives took one long task of the page's start (issue 25). Any other seed (a nested theme, the
 * tests, which run without the build's constants) is derived as antd does it.
 */
export function buildTimeAlgorithm(seed: SeedToken): MapToken {
  const built = typeof __KYFW_ANTD_MAP_TOKEN__ === 'object' ? __KYFW_ANTD_MAP_TOKEN__ : undefined;
  if (built && sameToken(seed, built.seed)) return { ...(built.map as MapToken) };
  return antdTheme.defaultAlgorithm(seed);
}

function sameToken(a: object, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => (a as Record<string, unknown>)[key] === b[key])
  );
}

/** A calm, academic theme: deep ink blue, warm gold accent, generous radius, CJK-first fonts. */
export const theme: ThemeConfig = {
  algorithm: buildTimeAlgorithm,
  token: {
    colorPrimary: palette.primary,
    colorInfo: palette.primary,
    colorSuccess: palette.success,
    colorWarning: palette.warning,
    colorError: palette.error,
    colorText: palette.text,
    colorTextSecondary: palette.textSecondary,
    colorBorder: palette.border,
    colorBgLayout: palette.bgLayout,
    borderRadius: 8,
    fontSize: 14,
    fontFamily:
      '"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    zIndexPopupBase: Z_INDEX.popup,
    controlItemBgActive: palette.itemActive,
    controlItemBgActiveHover: palette.itemActiveHover,
  },
  components: {
    Message: { zIndexPopup: Z_INDEX.message },
    Button: { fontWeight: 500 },
    Modal: { titleFontSize: 18 },
    Tabs: { titleFontSize: 15 },
  },
};
