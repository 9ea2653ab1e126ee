import type { Card } from "../models/public-article.server";

// Built-in sample for the home page (SPEC §4), shown only while no article is published at all
// (DESIGN §8): a fresh install looks like a news site rather than an empty page. Sample cards have
// no article page, so they carry no link.

type BlockId = "hero" | "main" | "sidebar" | "trending" | "featured";

const sample = (n: number, title: string, subtitle: string, category: string, image: string, views: number): Card => ({
  id: `sample-${n}`,
  slug: `sample-${n}`,
  title,
  subtitle,
  category,
  category_slug: null,
  time: "Just now",
  published_at: null,
  views,
  author: "Редакція",
  image,
  url: null,
  comment_count: 0,
});

const S = [
  sample(
    1,
    "Телескоп Джеймса Вебба знайшов воду в атмосфері далекої екзопланети",
    "Спектр планети показує водяну пару та хмари — крок до пошуку світів, придатних для життя.",
    "Космос і фізика",
    "/images/demo/space-1.jpg",
    1520,
  ),
  sample(
    2,
    "Нова мРНК-вакцина навчає імунітет розпізнавати пухлину",
    "Перші клінічні випробування показують стійку імунну відповідь у пацієнтів.",
    "Медицина",
    "/images/demo/medicine-1.jpg",
    980,
  ),
  sample(
    3,
    "Штучний інтелект передбачив форму тисяч білків",
    "Відкриті моделі прискорюють пошук ліків і розуміння хвороб.",
    "ШІ та обчислення",
    "/images/demo/ai-1.jpg",
    870,
  ),
  sample(
    4,
    "Карпатські ліси поглинають більше вуглецю, ніж вважали",
    "Науковці порахували запаси вуглецю в старовікових лісах.",
    "Довкілля",
    "/images/demo/earth-1.jpg",
    640,
  ),
  sample(
    5,
    "Твердотільні батареї виходять із лабораторій",
    "Виробники обіцяють швидше заряджання й більшу безпеку.",
    "Технології",
    "/images/demo/tech-1.jpg",
    590,
  ),
  sample(6, "Мікробіом кишківника впливає на настрій", "Нові дані пов'язують бактерії зі стресом і сном.", "Біологія", "/images/demo/bio-1.jpg", 450),
  sample(
    7,
    "Українські дослідники відкрили дані про клімат за 100 років",
    "Архіви метеостанцій оцифровано та викладено у відкритий доступ.",
    "Дослідження",
    "/images/demo/research-1.jpg",
    410,
  ),
  sample(
    8,
    "Перовскітні сонячні панелі б'ють рекорди ефективності",
    "Тандемні елементи перетнули позначку 33 відсотки.",
    "Інновації",
    "/images/demo/innovation-1.jpg",
    380,
  ),
];

export const SAMPLE_BLOCKS: Record<BlockId, Card[]> = {
  hero: [S[0]],
  main: [S[1], S[2], S[3]],
  sidebar: [S[4], S[5], S[6], S[7], S[1]],
  trending: [S[2], S[0], S[4], S[5]],
  featured: [S[6], S[7], S[3], S[5], S[1], S[2]],
};
