// sample.jsx: JavaScript with JSX. Panel in a comment
import React from "react";

export const DEFAULTS = { size: 1 };
var legacy = 1;

export class Panel extends React.Component {
  state = { open: false };
  static count = 0;
  toggle() {
    this.setState({ open: !this.state.open });
  }
  render() {
    return <div onClick={() => this.toggle()}>Panel {this.props.title}</div>;
  }
}

function* ids() {
  yield 1;
}

export function App() {
  const label = "Panel in a string";
  return <Panel title={label} />;
}

export const handler = function () {
  return App;
};
