import { API_PREFIX } from '@kyfw/contracts';

/**
 * Public (browser-side) configuration. The server injects `window.__KYFW_CONFIG__` into
 * index.html (it replaces the `<!--kyfw-config-->` marker); missing fields fall back to
 * defaults so that `vite dev` and tests run without a server.
 */
export interface PublicConfig {
  apiBase: string;
  /** Whether the developer-tools deterrent may run at all. */
  devtoolsDeterrent: boolean;
  sandbox: boolean;
}

export function getPublicConfig(): PublicConfig {
  const injected = typeof window === 'undefined' ? undefined : window.__KYFW_CONFIG__;
  return {
    apiBase: injected?.apiBase || API_PREFIX,
    // A missing object means "not served by our server" (vite dev, tests): stay off there;
    // a production build served without the object keeps the deterrent on.
    devtoolsDeterrent: injected ? injected.devtoolsDeterrent !== false : !import.meta.env.DEV,
    sandbox: injected?.sandbox === true,
  };
}

/** The build id embedded at build time; 'dev' outside a production build. */
export const BUILD_ID: string = typeof __KYFW_BUILD_ID__ === 'string' ? __KYFW_BUILD_ID__ : 'dev';
