import { useState } from "react";
import { CheckboxField, Field } from "~/components/ui/field";
import type { FieldErrors } from "~/utils/forms";
import { LIMITS, MESSAGES } from "~/utils/newsroom-rules";
import { checkImage, readAsDataUrl, type FieldChange } from "./markdown-toolbar";

// The editor's featured image: the stored one or the chosen file's preview, a warning when it is
// narrower than a wide screen needs, its alt text and caption (SPEC §5 'Images').

export function FeaturedImagePanel({
  image,
  alt,
  caption,
  errors,
  preview,
  onPreview,
  onAlt,
  onCaption,
  onError,
}: {
  image: string;
  alt: string;
  caption: string;
  errors: FieldErrors;
  /** The chosen file as a data URL, before it is saved. */
  preview: string | null;
  onPreview: (preview: string | null) => void;
  onAlt: FieldChange;
  onCaption: FieldChange;
  onError: (message: string | null) => void;
}) {
  const [width, setWidth] = useState<number | null>(null);
  return (
    <div className="editor-panel">
      <h3>Головне зображення</h3>
      {preview || image ? (
        <img
          src={preview ?? image}
          alt="Головне зображення статті"
          className="featured-preview"
          // An image already loaded before hydration fires no load event: read it on mount too.
          ref={(img) => {
            if (img?.complete && img.naturalWidth) setWidth(img.naturalWidth);
          }}
          onLoad={(event) => setWidth(event.currentTarget.naturalWidth)}
        />
      ) : null}
      {(preview || image) && width && width < LIMITS.featuredMinWidth ? (
        <p className="field-warning" role="status">
          Зображення має ширину {width} px, менше за {LIMITS.featuredMinWidth} px: на широкому екрані й у соцмережах воно буде розмитим.
        </p>
      ) : null}
      <input type="hidden" name="featured_image" value={image} />
      <Field
        label="Завантажити зображення"
        name="featured_image_file"
        error={errors.featured_image_file ?? errors.featured_image}
        type="file"
        accept="image/*"
        onChange={async (event) => {
          const input = event.target;
          const file = input.files?.[0];
          onPreview(null);
          if (!file) return;
          const problem = checkImage(file);
          if (problem) {
            onError(problem);
            input.value = "";
            return;
          }
          onError(null);
          try {
            onPreview(await readAsDataUrl(file));
          } catch {
            onError(MESSAGES.fileReadError);
            input.value = "";
          }
        }}
      />
      <p className="muted small">JPG, PNG, GIF або WebP, до 5 МБ; найкраще від {LIMITS.featuredMinWidth} px завширшки.</p>
      <Field
        label="Опис зображення (alt)"
        name="featured_image_alt"
        error={errors.featured_image_alt}
        value={alt}
        onChange={onAlt}
        maxLength={LIMITS.imageAlt}
        hint="Що на зображенні: для читачів, які його не бачать."
      />
      <Field
        label="Підпис (автор фото)"
        name="featured_image_caption"
        error={errors.featured_image_caption}
        value={caption}
        onChange={onCaption}
        maxLength={LIMITS.imageCaption}
        placeholder="Фото: NASA/JPL"
      />
      {image ? <CheckboxField label="Видалити зображення" name="remove_featured_image" /> : null}
    </div>
  );
}
