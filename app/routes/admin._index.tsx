// /admin is the dashboard (SPEC §2).
export { default, handle, loader, meta, ErrorBoundary } from "./admin.dashboard";
