// A core message as the window shows it: the plain sentence, then the service's code in small
// print for support (settings-wording.ts says why).
import { inSettings, plainWording } from '../settings-wording';

export function ServiceWording(props: { message: string; inSettings?: boolean }) {
  const { text, code } = (props.inSettings ? inSettings : plainWording)(props.message);
  return (
    <>
      {text}
      {code ? <small class="service-code">{` Service's answer: ${code}.`}</small> : null}
    </>
  );
}
