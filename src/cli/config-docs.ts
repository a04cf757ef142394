import { configTable } from '../config';

/** Renders the configuration table as the Markdown of docs/configuration.md (`npm run ctl -- config docs`). */
export function configDocsMarkdown(): string {
  const rows = Object.values(configTable).map(
    (k) => `| \`${k.env}\` | ${k.defaultDoc.replace(/\|/g, '\\|')} | ${k.doc.replace(/\|/g, '\\|')} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
