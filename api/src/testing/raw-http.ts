import net from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The body as JSON, or undefined when it is not JSON. */
  readonly json: any;
}

/**
 * Bytes written to the server's socket as they are: request targets and malformed HTTP that
 * fetch would normalise or refuse to send.
 */
export const rawRequest = (baseUrl: string, bytes: string): Promise<RawResponse> => {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, json });
    });
  });
};

const unchunk = (text: string) => {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
};

/** One request in origin or absolute form, closing the connection after the answer. */
export const rawHttp = (baseUrl: string, method: string, target: string, options: { headers?: Record<string, string>; body?: string } = {}) => {
  const host = new URL(baseUrl).host;
  const headers: Record<string, string> = { host, connection: 'close', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return rawRequest(baseUrl, `${method} ${target} HTTP/1.1\r\n${head}\r\n${options.body ?? ''}`);
};
