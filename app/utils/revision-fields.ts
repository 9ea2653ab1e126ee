/** The fields a revision keeps (issue 15): the status, slug and dates are not part of a version's text. */
export interface KeptFields {
  title: string;
  subtitle: string | null;
  content: string;
  tags: string[];
  category_id: string | null;
  seo_title: string | null;
  seo_description: string | null;
  featured_image: string | null;
  featured_image_alt: string | null;
  featured_image_caption: string | null;
}
