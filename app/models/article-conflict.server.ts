import { DomainError } from "../utils/errors";
import { formatPublicDateTime } from "../utils/public-format";

// The edit-conflict refusal of article saves (decision 006; issue 31 item 12), beside the writes
// (article-writes.server.ts) that throw it and the editor action that answers it side by side.

/**
 * A save based on an older version (decision 006): 409 naming who saved the newer one. The editor
 * shows both versions side by side and offers to keep the writer's (issue 31 item 12), a save
 * based on `version`, the one the writer has now seen.
 */
export class EditConflict extends DomainError {
  constructor(
    readonly version: number,
    readonly who: string,
    readonly updatedAt: string,
  ) {
    super(
      409,
      `Статтю вже змінив(ла) ${who} ${formatPublicDateTime(updatedAt)}. Ваші зміни не збережено, ваш текст залишився у формі: скопіюйте його й перезавантажте сторінку.`,
    );
  }
}

/** The conflict of a save against the article as it now is. */
export function conflict(current: { version: number; updated_at: string; editor_name?: string | null; editor_username?: string | null }) {
  return new EditConflict(current.version, current.editor_name || current.editor_username || "інший користувач", current.updated_at);
}
