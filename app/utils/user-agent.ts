// "Your sessions" (issue 25) names each session's device in plain words from its User-Agent:
// "Firefox на Windows", "Safari на iPhone", "curl". A small table instead of a parser library: the
// list needs the browser family and the system, not versions, and an unknown agent says so.

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\b(HeadlessChrome|Chrome|CriOS)\//, "Chrome"],
  [/\bChromium\//, "Chromium"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//i, "curl"],
  [/^Wget\//i, "Wget"],
  [/^python-requests\/|^Python-urllib\/|^python-httpx\//i, "Python"],
  [/^PostmanRuntime\//, "Postman"],
  [/^insomnia\//i, "Insomnia"],
  [/^(node-fetch|undici|node)\b|^axios\//i, "Node.js"],
  [/^okhttp\//i, "Android (okhttp)"],
  [/^Go-http-client\//, "Go"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const first = (table: [RegExp, string][], text: string) => table.find(([pattern]) => pattern.test(text))?.[1];

/** The device of a User-Agent in plain words, for people (never for decisions). */
export function describeDevice(userAgent: string | null | undefined): string {
  const text = (userAgent ?? "").trim();
  if (!text) return "Невідомий пристрій";
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} на ${system}`;
  if (browser) return browser;
  if (system) return `Браузер на ${system}`;
  return "Невідомий пристрій";
}
