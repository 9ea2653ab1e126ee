import type { CommentStatus } from "../../db/schema";

// The moderation queues of readers' comments (issue 28), shared by the screen and the model.

export const COMMENT_STATUSES = ["pending", "approved", "spam", "deleted"] as const satisfies readonly CommentStatus[];

export const COMMENT_STATUS_LABELS: Record<CommentStatus, string> = {
  pending: "Очікують",
  approved: "Схвалені",
  spam: "Спам",
  deleted: "Видалені",
};
