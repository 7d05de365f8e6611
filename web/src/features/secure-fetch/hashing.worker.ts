import { hashBlob, type HashReply, type HashRequest } from './hashing.core';

/*
 * The hashing worker: hashes each file it is sent off the page's thread, reporting progress. The
 * app is typed with the DOM library; of the worker's scope only these two members are used.
 */
const scope = self as unknown as { postMessage(message: HashReply): void; onmessage: ((event: MessageEvent<HashRequest>) => void) | null };
const reply = (message: HashReply) => scope.postMessage(message);

scope.onmessage = (event: MessageEvent<HashRequest>) => {
  const { id, file } = event.data;
  let lastReport = 0;
  hashBlob(file, (bytesHashed) => {
    // Progress at most every 1 %: the page need not re-render for every slice of a large file.
    if (bytesHashed === file.size || bytesHashed - lastReport >= file.size / 100) {
      lastReport = bytesHashed;
      reply({ id, type: 'progress', bytesHashed });
    }
  })
    .then((hashes) => reply({ id, type: 'done', hashes }))
    .catch((error: unknown) => reply({ id, type: 'failed', message: error instanceof Error ? error.message : String(error) }));
};
