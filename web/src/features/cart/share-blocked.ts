/** Why the cart's Share button is disabled, as the text key of the hint it shows; null when it is enabled. */
export type ShareBlocked = 'cart.shareBlocked.busy' | 'cart.shareBlocked.uploading' | 'cart.shareBlocked.title';

export const shareBlocked = ({ busy, uploading, title }: { busy: boolean; uploading: boolean; title: string }): ShareBlocked | null => {
  if (busy) return 'cart.shareBlocked.busy';
  if (uploading) return 'cart.shareBlocked.uploading';
  if (!title.trim()) return 'cart.shareBlocked.title';
  return null;
};
