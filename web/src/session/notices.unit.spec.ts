import { describe, expect, it } from 'vitest';
import { noticeStore } from './notices';

describe('notices', () => {
  it("a notice's button runs its action once and closes the notice", () => {
    let undone = 0;
    const id = noticeStore.push({
      severity: 'success',
      key: 'files.trash.moved',
      values: { count: 1 },
      action: { key: 'files.trash.undo', run: () => undone++ },
    });
    expect(noticeStore.get().find((n) => n.id === id)?.action?.key).toBe('files.trash.undo');
    noticeStore.act(id);
    expect(undone).toBe(1);
    expect(noticeStore.get().some((n) => n.id === id)).toBe(false);
    noticeStore.act(id);
    expect(undone).toBe(1);
  });

  it('a notice without a button closes and runs nothing when pressed', () => {
    const id = noticeStore.push({ severity: 'info', key: 'offline.blocked' });
    noticeStore.act(id);
    expect(noticeStore.get().some((n) => n.id === id)).toBe(false);
  });
});
