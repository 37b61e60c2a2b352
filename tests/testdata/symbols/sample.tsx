// sample.tsx: TypeScript with JSX
import * as React from "react";

interface Props {
  title: string;
  onClose(): void;
}

type State = { open: boolean };

export function Dialog(props: Props) {
  return <section title={props.title}>{props.title}</section>;
}

export class Modal extends React.Component<Props, State> {
  state: State = { open: true };
  render() {
    return <Dialog title="Modal" onClose={() => {}} />;
  }
}

export const useToggle = (initial: boolean): [boolean, () => void] => {
  const [on, setOn] = React.useState(initial);
  return [on, () => setOn(!on)];
};
