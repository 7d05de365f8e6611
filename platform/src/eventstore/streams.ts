/** One stream-name helper per aggregate keeps names consistent: `<category>-<id>`. */
export const streamName = (category: string, id: string): string => `${category}-${id}`;

export const streamCategory = (name: string): string => {
  const dash = name.indexOf('-');
  return dash < 0 ? name : name.slice(0, dash);
};

export const streamId = (name: string): string => {
  const dash = name.indexOf('-');
  return dash < 0 ? '' : name.slice(dash + 1);
};
