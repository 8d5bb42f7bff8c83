"""template.yaml as data: read with cfn-lint's decoder, intrinsics resolved to local names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cfnlint.decode import decode

REGION = "us-east-1"
ACCOUNT = "123456789012"
STACK = "connect6-local"
NO_VALUE = object()


def load_template(path: Path) -> dict[str, Any]:
    """The template as plain data: ``!Ref x`` → ``{"Ref": "x"}``, ``!GetAtt A.B`` →
    ``{"Fn::GetAtt": [A, B]}``."""
    loaded, problems = decode(str(path))
    if loaded is None or problems or "Resources" not in loaded:
        raise SystemExit(f"{path} is not a readable CloudFormation/SAM template: {problems}")
    return dict(loaded)


class Resolver:
    """The intrinsics template.yaml uses — ``Ref``, ``Fn::GetAtt``, ``Fn::Sub`` — resolved to local
    names and fake ARNs. Anything else is an error, so a new one in the template is noticed here."""

    def __init__(
        self, template: dict[str, Any], physical: dict[str, str], overrides: dict[str, str] | None = None,
        stack: str = STACK,
    ) -> None:
        self.physical = physical  # logical id -> what Ref returns
        self.stack = stack
        self.resources: dict[str, Any] = template.get("Resources") or {}
        self.parameters: dict[str, Any] = {
            name: (spec or {}).get("Default", "") for name, spec in (template.get("Parameters") or {}).items()
        }
        for name, value in (overrides or {}).items():
            if name in self.parameters:
                self.parameters[name] = value

    def ref(self, name: str) -> Any:
        pseudo = {
            "AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::StackName": self.stack,
            "AWS::Partition": "aws", "AWS::NoValue": NO_VALUE,
        }
        if name in pseudo:
            return pseudo[name]
        if name in self.parameters:
            return self.parameters[name]
        if name in self.physical:
            return self.physical[name]
        if name in self.resources:
            return f"{self.stack}-{name}"
        raise ValueError(f"!Ref {name}: no such parameter or resource in the template")

    def get_att(self, logical: str, attribute: str) -> str:
        kind = (self.resources.get(logical) or {}).get("Type", "")
        name = self.ref(logical)
        if kind == "AWS::DynamoDB::Table":
            arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
            return {"Arn": arn, "StreamArn": f"{arn}/stream/local"}.get(attribute, arn)
        if kind == "AWS::Events::EventBus":
            return {"Name": name}.get(attribute, f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{name}")
        return f"arn:aws:local:{REGION}:{ACCOUNT}:{logical}/{attribute}"

    def sub(self, text: str, extra: dict[str, Any]) -> str:
        def one(match: re.Match[str]) -> str:
            key = match.group(1)
            if key.startswith("!"):
                return "${" + key[1:] + "}"
            if key in extra:
                return str(self.resolve(extra[key]))
            if "." in key:
                logical, attribute = key.split(".", 1)
                return self.get_att(logical, attribute)
            return str(self.ref(key))

        return re.sub(r"\$\{([^}]+)\}", one, text)

    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            return [v for v in (self.resolve(item) for item in value) if v is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, arg),) = value.items()
            if key == "Ref":
                return self.ref(arg)
            if key == "Fn::GetAtt":
                return self.get_att(arg[0], arg[1])
            if key == "Fn::Sub":
                return self.sub(arg, {}) if isinstance(arg, str) else self.sub(arg[0], arg[1])
            if key.startswith("Fn::") or key == "Condition":
                raise ValueError(f"{key}: not used by template.yaml, so not resolved locally")
        out = {}
        for k, v in value.items():
            resolved = self.resolve(v)
            if resolved is not NO_VALUE:
                out[k] = resolved
        return out
