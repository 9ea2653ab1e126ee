import { chromium, type FullConfig } from "@playwright/test";

// Before any spec: one browser opens the home page of the server Playwright started. When the
// browser cannot start or cannot reach the server, every spec would fail on its own with a long
// trace each; this says so once, last in the output, with the browser's version.
export default async function globalSetup(config: FullConfig) {
  const { baseURL, launchOptions } = config.projects[0].use;
  const browser = await chromium.launch(launchOptions).catch((error: Error) => {
    throw new Error(`e2e set-up: Chromium did not start (${launchOptions?.executablePath ?? "Playwright's default"}): ${error.message}`);
  });
  try {
    const page = await browser.newPage();
    const response = await page.goto(`${baseURL}/`).catch((error: Error) => {
      throw new Error(`e2e set-up: Chromium ${browser.version()} could not open ${baseURL}/: ${error.message}`);
    });
    if (response?.status() !== 200) throw new Error(`e2e set-up: ${baseURL}/ answered HTTP ${response?.status()} to Chromium ${browser.version()}`);
    console.log(`e2e set-up: Chromium ${browser.version()} opened ${baseURL}/ (HTTP 200)`);
  } finally {
    await browser.close();
  }
}
