/** The page: its server side (login, cookie, events, static files), mounted by the HTTP listener. */
export { PageRoutes, type PageRoutesOptions, type PageSeam } from './page-routes.js';
export { LOGIN_CODE_TTL_MS, PAGE_COOKIE } from './login-codes.js';
export { BRAINS_SAMPLE_MS } from './brains-stream.js';
export { PAGE_CSP, PAGE_ASSETS_DIR } from './page-assets.js';
