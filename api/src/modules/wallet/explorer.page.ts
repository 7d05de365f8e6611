/*
 * The product's own explorer page of a transaction (the development chain has no other explorer):
 * plain HTML from the server, in the web app's look (its colours, card and type), one column on a
 * phone. Times are written in UTC here and rewritten in the reader's own locale and time zone by
 * LOCAL_TIMES_SCRIPT, with the options the web app's dates use (medium date, short time).
 */

export interface ExplorerTransaction {
  readonly txid: string;
  readonly from: string | null;
  readonly to: string;
  readonly amount: string;
  readonly timestamp: string;
  readonly confirmations: number;
  readonly blockIndex: number | null;
  readonly blockHash: string | null;
  readonly blockTime: string | null;
  readonly linkedTransactions: readonly string[];
  readonly data: string | null;
}

/** Where the page's one script is served: `script-src 'self'` lets it run, inline code would not. */
export const LOCAL_TIMES_PATH = '/explorer/local-times.js';

/** Every `<time datetime>` of the page, in the browser's locale and time zone. */
export const LOCAL_TIMES_SCRIPT = `(function () {
  var format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  document.querySelectorAll('time[datetime]').forEach(function (el) {
    var d = new Date(el.getAttribute('datetime'));
    if (!isNaN(d.getTime())) { el.textContent = format.format(d); el.setAttribute('data-local', 'true'); }
  });
})();
`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A time as the page first shows it (UTC, said so), until the script writes it in the reader's zone. */
const time = (iso: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return escapeHtml(iso);
  return `<time datetime="${escapeHtml(d.toISOString())}">${escapeHtml(`${utc.format(d)} UTC`)}</time>`;
};

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f5f7fb;color:rgba(0,0,0,.87);font:400 1rem/1.5 Roboto,"Helvetica Neue",Arial,sans-serif}
header{display:flex;align-items:center;gap:8px;padding:12px 16px;background:#fff;border-bottom:1px solid #e0e0e0}
header a{color:inherit;text-decoration:none;font-size:1.25rem;font-weight:500}
main{max-width:860px;margin:0 auto;padding:24px 16px}
h1{font-size:1.75rem;font-weight:400;margin:0 0 16px}
h2{font-size:1.25rem;font-weight:500;margin:0 0 12px}
.card{background:#fff;border:1px solid #e0e0e0;border-radius:8px;padding:16px;margin-bottom:16px}
.chain{display:inline-block;background:#fff4e5;color:#663c00;border-radius:8px;padding:6px 12px;margin:0 0 16px}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:8px 24px;margin:0}
dt{color:rgba(0,0,0,.6)}
dd{margin:0;min-width:0;overflow-wrap:anywhere}
code{font-family:"Roboto Mono",Menlo,Consolas,monospace;font-size:.875em}
ul{margin:0;padding-left:20px}
li{overflow-wrap:anywhere}
a{color:#1f5fbf}
.status{display:inline-block;border-radius:16px;padding:0 10px;font-size:.875rem;background:#e8f5e9;color:#1b5e20}
.status.pending{background:#fff4e5;color:#663c00}
.button{display:inline-block;background:#1f5fbf;color:#fff;border-radius:8px;padding:6px 16px;text-decoration:none;font-weight:500;font-size:.875rem;letter-spacing:.02857em;text-transform:uppercase}
@media (max-width:600px){dl{grid-template-columns:minmax(0,1fr);gap:2px}dd{margin-bottom:10px}h1{font-size:1.5rem}}
`;

const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><header><a href="/">AXEL Drive</a></header><main>${body}</main><script src="${LOCAL_TIMES_PATH}"></script></body></html>`;

const searchLink = '<p><a class="button" href="/transaction/search">Search another transaction</a></p>';

export const transactionPage = (d: ExplorerTransaction, development: boolean): string => {
  const row = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`;
  const pending = d.confirmations === 0;
  const status = pending ? 'Unconfirmed (waiting for a block)' : `${d.confirmations} confirmation${d.confirmations === 1 ? '' : 's'}`;
  const linked = d.linkedTransactions.length
    ? `<ul>${d.linkedTransactions.map((id) => `<li><a href="/transaction/${escapeHtml(id)}"><code>${escapeHtml(id)}</code></a></li>`).join('')}</ul>`
    : '<p>None.</p>';
  const rows = [
    row('Transaction', `<code>${escapeHtml(d.txid)}</code>`),
    row('Status', `<span class="status${pending ? ' pending' : ''}">${escapeHtml(status)}</span>`),
    row('Amount', `${escapeHtml(d.amount)} AXEL`),
    row('From', d.from ? `<code>${escapeHtml(d.from)}</code>` : 'Newly minted'),
    row('To', `<code>${escapeHtml(d.to)}</code>`),
    row('Time', time(d.timestamp)),
    ...(d.data ? [row('Data', `<code>${escapeHtml(d.data)}</code>`)] : []),
    row(
      'Block',
      d.blockIndex === null
        ? 'Not mined yet'
        : `${d.blockIndex} (<code>${escapeHtml(d.blockHash ?? '')}</code>)${d.blockTime ? ` at ${time(d.blockTime)}` : ''}`,
    ),
  ];
  return shell(
    `Transaction ${d.txid.slice(0, 16)}… · AXEL explorer`,
    `<h1>AXEL transaction</h1>${development ? '<p class="chain" data-testid="development-chain">Development chain: these tokens have no value outside this installation.</p>' : ''}
<section class="card"><dl data-testid="transaction">${rows.join('')}</dl></section>
<section class="card"><h2>Other transactions of this block</h2>${linked}</section>${searchLink}`,
  );
};

export const transactionNotFoundPage = (id: string): string =>
  shell(
    'Transaction not found',
    `<h1>Transaction not found</h1><section class="card"><p>No transaction <code>${escapeHtml(id)}</code> on this chain.</p></section>${searchLink}`,
  );
