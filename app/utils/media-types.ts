// The media library's type filter (SPEC §2 'Media library'): shared by the screen and the model.
export const MEDIA_TYPES = ["all", "image", "video", "document"] as const;
export type MediaTypeFilter = (typeof MEDIA_TYPES)[number];
