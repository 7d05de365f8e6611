import { useEffect, useRef, useState } from 'react';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import { shareLinkApi, type ShareCredentials } from '../sharing/share-link.api';
import type { Bookmark } from './bookmarks.api';
import { openBookmarkMachine, type OpenBookmarkOutput } from './open-bookmark.machine';

const machine = openBookmarkMachine.provide({
  actors: {
    summary: fromPromise(({ input }: { input: { linkId: string } }) => shareLinkApi.summary(input.linkId)),
    verify: fromPromise(async ({ input }: { input: { linkId: string; credentials: ShareCredentials } }) => {
      await shareLinkApi.entries(input.linkId, null, input.credentials);
    }),
  },
});

type OpenActor = Actor<typeof machine>;

/** Runs one bookmark's open flow at a time; `onDone` gets where it ended (open, back with a message, cancelled). */
export const useOpenBookmark = (viewerEmail: string | null, onDone: (bookmark: Bookmark, output: OpenBookmarkOutput) => void) => {
  const [opening, setOpening] = useState<{ bookmark: Bookmark; snapshot: SnapshotFrom<typeof machine> } | null>(null);
  const actorRef = useRef<OpenActor | null>(null);
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(
    () => () => {
      actorRef.current?.stop();
    },
    [],
  );

  const start = (bookmark: Bookmark) => {
    actorRef.current?.stop();
    const actor = createActor(machine, { input: { linkId: bookmark.shareLinkId, viewerEmail } });
    actorRef.current = actor;
    actor.subscribe((snapshot) => {
      if (actorRef.current !== actor) return;
      if (snapshot.status === 'done') {
        setOpening(null);
        done.current(bookmark, snapshot.output!);
      } else setOpening({ bookmark, snapshot });
    });
    actor.start();
  };

  return {
    start,
    opening: opening?.bookmark ?? null,
    asksPassword: opening?.snapshot.matches('askingPassword') ?? false,
    busy: opening !== null && !opening.snapshot.matches('askingPassword'),
    submit: (password: string) => actorRef.current?.send({ type: 'SUBMIT', password }),
    cancel: () => actorRef.current?.send({ type: 'CANCEL' }),
  };
};
