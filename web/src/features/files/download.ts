import { API_BASE } from '../../api/client';
import { filesApi, sourceUrl, type Item } from './files.api';
import { archiveName } from './format';
import { runStorageTask } from './storage-task';

/** Hands a URL to the browser's own download (the server sends it as an attachment). */
export const startBrowserDownload = (url: string, fileName?: string) => {
  const a = document.createElement('a');
  a.href = url.startsWith('/') || url.startsWith('http') ? url : `${API_BASE}/${url}`;
  if (fileName) a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
};

export const downloadFile = (userId: string, item: Item) => startBrowserDownload(sourceUrl(userId, item, { download: true }), item.name);

/** Folders and several items leave as one zip, built by an archive storage task. */
export const downloadArchive = async (userId: string, items: Item[], onState?: (status: string) => void, confirmSkip2fa?: () => Promise<boolean>) => {
  const done = await runStorageTask({
    start: ({ skip2fa }) =>
      filesApi.startTask(userId, {
        action: 'archive',
        itemIds: items.map((i) => i.id),
        archiveName: archiveName(items, new Date()),
        ...(skip2fa ? { skip2fa } : {}),
      }),
    poll: (task) => filesApi.taskState(userId, task),
    onState: (state) => onState?.(state.status),
    confirmSkip2fa,
  });
  if (done.downloadURL) startBrowserDownload(done.downloadURL);
};
