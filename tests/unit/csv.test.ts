import { describe, expect, it } from "vitest";
import { describeAuditDetails } from "../../app/utils/audit-actions";
import { CSV_BOM, csvCell, csvRow } from "../../app/utils/csv";

// The audit log's CSV export (issue 25): RFC 4180 quoting, and no cell a spreadsheet would run as a
// formula (OWASP 'CSV Injection').
describe("csvCell", () => {
  it("neutralises cells that start a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvCell(`${start}1+1`).replace(/^"/, ""), JSON.stringify(start)).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell("-5")).toBe("'-5");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    // Only the start counts: text with a sign inside stays as it is.
    expect(csvCell("a=b+c")).toBe("a=b+c");
    expect(csvCell("2026-11-25T10:00:00.000Z")).toBe("2026-11-25T10:00:00.000Z");
  });

  it("quotes what needs quoting and doubles quotes", () => {
    expect(csvCell("просто текст")).toBe("просто текст");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(" padded ")).toBe('" padded "');
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(42)).toBe("42");
    expect(csvCell('{"keys":["seo.robots"]}')).toBe('"{""keys"":[""seo.robots""]}"');
  });

  it("rows end with CRLF; the file starts with a BOM for spreadsheets", () => {
    expect(csvRow(["a", "=b", null, "c,d"])).toBe(`a,'=b,,"c,d"\r\n`);
    expect(CSV_BOM).toBe("\uFEFF");
  });
});

describe("describeAuditDetails", () => {
  it("reads an entry's details in Ukrainian", () => {
    expect(describeAuditDetails({ from: "draft", to: "published", bulk: true })).toBe("draft → published; масова дія: так");
    expect(describeAuditDetails({ keys: ["seo.site_title", "seo.robots"] })).toBe("ключі: seo.site_title, seo.robots");
    expect(describeAuditDetails({ via: "api", reason: "credentials" })).toBe("через: API; причина: невірне ім'я або пароль");
    expect(describeAuditDetails({ fields: [] })).toBe("");
    expect(describeAuditDetails(null)).toBe("");
  });
});
