/// <reference types="vite/client" />

/** Build id embedded by the `kyfw-build-meta` plugin of vite.config.ts (absent in tests). */
declare const __KYFW_BUILD_ID__: string;

/**
 * antd's map tokens for the theme's seed, computed when the bundle is built (the `kyfw-antd-map-token`
 * plugin of vite.config.ts; absent in tests). See src/app/theme.ts.
 */
declare const __KYFW_ANTD_MAP_TOKEN__: { seed: Record<string, unknown>; map: object } | undefined;

interface KyfwPublicConfig {
  /** API base URL; default same origin `/kyfw/web/v1`. */
  apiBase?: string;
  /** `false` switches the developer-tools deterrent off. */
  devtoolsDeterrent?: boolean;
  /** Sandbox providers are in use (dev controls available). */
  sandbox?: boolean;
}

interface Window {
  /** Injected by the server into index.html from its configuration. */
  __KYFW_CONFIG__?: KyfwPublicConfig;
}
