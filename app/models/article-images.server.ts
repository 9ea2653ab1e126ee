import type { User } from "../../db/schema";
import { DomainError } from "../utils/errors";
import { MAX_EMBEDDED_IMAGES, MESSAGES, type ArticleInput } from "../utils/newsroom-rules";
import { discardStoredMedia, storeDataUrlImage, type MediaItem } from "./media.server";

// DESIGN §8: a data URL in featured_image or content is stored as a media file (media model, same
// checks as an upload) and replaced by its URL, so articles stay small. A save stores at most
// MAX_EMBEDDED_IMAGES of them (counted before anything is stored), and the images of a save that
// does not commit are removed again (rows and files): withEmbeddedImages below.

// An embedded image in markdown content: ![alt](data:image/png;base64,...).
const EMBEDDED_IMAGE = /data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi;

export interface StoredImages {
  content: string;
  featuredImage: string | null;
  /** The media this save stored; removed when the save fails. */
  stored: MediaItem[];
}

/**
 * Stores the data-URL images of a save. A refused image becomes a 422 on the field it came from;
 * more than MAX_EMBEDDED_IMAGES distinct images is a 422 on `content` and stores none. When one
 * image is refused, the ones stored before it are removed.
 */
export async function storeEmbeddedImages(input: ArticleInput, actor: Pick<User, "id">): Promise<StoredImages> {
  const embedded = [...new Set(input.content.match(EMBEDDED_IMAGE) ?? [])];
  const featuredIsData = Boolean(input.featured_image?.startsWith("data:"));
  if (embedded.length + (featuredIsData ? 1 : 0) > MAX_EMBEDDED_IMAGES) {
    throw new DomainError(422, MESSAGES.tooManyImages, "content");
  }
  const stored: MediaItem[] = [];
  const store = async (dataUrl: string, field: string) => {
    try {
      const item = await storeDataUrlImage({ dataUrl, userId: actor.id });
      stored.push(item);
      return item.url;
    } catch (error) {
      if (error instanceof DomainError) throw new DomainError(422, error.message, field);
      throw error;
    }
  };
  try {
    let featuredImage = input.featured_image;
    if (featuredImage && featuredIsData) featuredImage = await store(featuredImage, "featured_image");
    let content = input.content;
    for (const dataUrl of embedded) content = content.split(dataUrl).join(await store(dataUrl, "content"));
    return { content, featuredImage, stored };
  } catch (error) {
    await discardStoredMedia(stored);
    throw error;
  }
}

/** Runs the rest of a save; when it throws, the images it stored are removed before rethrowing. */
export async function withEmbeddedImages<T>(images: Pick<StoredImages, "stored">, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    await discardStoredMedia(images.stored);
    throw error;
  }
}

/** For `.catch()` on a save's transaction: removes the images it stored, then rethrows. */
export function discardImagesAndRethrow(images: Pick<StoredImages, "stored">) {
  return async (error: unknown): Promise<never> => {
    await discardStoredMedia(images.stored);
    throw error;
  };
}
