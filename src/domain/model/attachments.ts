// System event subtypes for file content the harness put in front of the model without a tool
// call: a file the person attached to a prompt, the new text of a file changed outside the agent,
// lines selected in the IDE. The model read them, so the rules that read text read them too (a
// credential shown there is in the transcript); none of them is an action of the agent.

export const ATTACHED_FILE = 'attached_file';
export const FILE_CHANGED_OUTSIDE = 'file_changed_outside';
export const IDE_SELECTION = 'ide_selection';

const WHERE: Readonly<Record<string, string>> = {
  [ATTACHED_FILE]: 'a file attached to the prompt',
  [FILE_CHANGED_OUTSIDE]: 'a file change the harness showed the agent',
  [IDE_SELECTION]: 'lines selected in the IDE',
};

/** Where a text of this subtype was shown, for a finding's wording; undefined for other subtypes. */
export function attachmentSource(subtype: string): string | undefined {
  return WHERE[subtype];
}
