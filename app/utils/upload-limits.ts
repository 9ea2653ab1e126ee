// Limits of image uploads shared by server.ts (its body cap) and app/services/upload.server.ts.

/** SPEC §9: at most 5 MB (5242880 bytes) per image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Files per upload request. */
export const MAX_FILES_PER_REQUEST = 12;
/** The body cap for multipart posts to the upload routes: that many 5 MB files and the form. */
export const MAX_UPLOAD_BODY_BYTES = MAX_FILES_PER_REQUEST * MAX_IMAGE_BYTES + 1024 * 1024;
/** The routes that take multipart image uploads. */
export const UPLOAD_PATHS = ["/admin/media", "/api/media", "/admin/import"];
