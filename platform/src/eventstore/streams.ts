/** One stream-name helper per aggregate keeps names consistent: `<category>-<id>`. */
export const streamName = (category: string, id: string): string => `${category}-${id}`;
