// /admin/seo is the same screen as /admin/seo/analytics (SPEC §2).
export { default, handle, loader, action, meta, ErrorBoundary } from "./admin.seo.analytics";
