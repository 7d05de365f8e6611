import { containsProfanity, NAME_MAX_BYTES, nameByteLength } from '../storage/storage.names';

/*
 * A bookmark's description and a list's name are titles (spec §5): no emoji, no profanity, at most
 * 255 of the spec's bytes. One pure check shared by the API and the web app's dialogs.
 */

export type TitleProblem = 'empty' | 'controlCharacters' | 'emoji' | 'tooLong' | 'profanity';

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u{FE0F}|\u{20E3}/u;
const CONTROL = /\p{Cc}/u;

/** Titles are stored trimmed, with inner runs of white space kept as typed. */
export const normaliseTitle = (title: string): string => title.normalize('NFC').trim();

/** The first rule a (normalised) title breaks, or null when it may be used. */
export const titleProblem = (title: string): TitleProblem | null => {
  if (title.length === 0) return 'empty';
  if (CONTROL.test(title)) return 'controlCharacters';
  if (EMOJI.test(title)) return 'emoji';
  if (nameByteLength(title) > NAME_MAX_BYTES) return 'tooLong';
  if (containsProfanity(title)) return 'profanity';
  return null;
};
