from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.badge_credential_credential_schema_item import BadgeCredentialCredentialSchemaItem
  from ..models.badge_credential_credentialsubject import BadgeCredentialCredentialsubject
  from ..models.badge_credential_evidence_item import BadgeCredentialEvidenceItem
  from ..models.badge_credential_image import BadgeCredentialImage
  from ..models.badge_credential_issuer import BadgeCredentialIssuer
  from ..models.credential_proof import CredentialProof





T = TypeVar("T", bound="BadgeCredential")



@_attrs_define
class BadgeCredential:
    """ The ``.json`` badge: the signed Open Badges 3.0 credential, readable, with its proof
    (docs/api.md "Badge visibility"); open: status, image digests and further terms follow.

        Attributes:
            context (list[Any]):
            id (str):
            type_ (list[str]):
            name (str):
            description (str):
            image (BadgeCredentialImage):
            issuer (BadgeCredentialIssuer):
            valid_from (str):
            valid_until (str):
            awarded_date (str):
            credential_subject (BadgeCredentialCredentialsubject):
            evidence (list[BadgeCredentialEvidenceItem]):
            credential_schema (list[BadgeCredentialCredentialSchemaItem]):
            proof (CredentialProof): The compact JWT the credential was signed as (VC-JWT).
     """

    context: list[Any]
    id: str
    type_: list[str]
    name: str
    description: str
    image: BadgeCredentialImage
    issuer: BadgeCredentialIssuer
    valid_from: str
    valid_until: str
    awarded_date: str
    credential_subject: BadgeCredentialCredentialsubject
    evidence: list[BadgeCredentialEvidenceItem]
    credential_schema: list[BadgeCredentialCredentialSchemaItem]
    proof: CredentialProof
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.badge_credential_credential_schema_item import BadgeCredentialCredentialSchemaItem # noqa: PLC0415
        from ..models.badge_credential_credentialsubject import BadgeCredentialCredentialsubject # noqa: PLC0415
        from ..models.badge_credential_evidence_item import BadgeCredentialEvidenceItem # noqa: PLC0415
        from ..models.badge_credential_image import BadgeCredentialImage # noqa: PLC0415
        from ..models.badge_credential_issuer import BadgeCredentialIssuer # noqa: PLC0415
        from ..models.credential_proof import CredentialProof # noqa: PLC0415
        context = self.context



        id = self.id

        type_ = self.type_



        name = self.name

        description = self.description

        image = self.image.to_dict()

        issuer = self.issuer.to_dict()

        valid_from = self.valid_from

        valid_until = self.valid_until

        awarded_date = self.awarded_date

        credential_subject = self.credential_subject.to_dict()

        evidence = []
        for evidence_item_data in self.evidence:
            evidence_item = evidence_item_data.to_dict()
            evidence.append(evidence_item)



        credential_schema = []
        for credential_schema_item_data in self.credential_schema:
            credential_schema_item = credential_schema_item_data.to_dict()
            credential_schema.append(credential_schema_item)



        proof = self.proof.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "@context": context,
            "id": id,
            "type": type_,
            "name": name,
            "description": description,
            "image": image,
            "issuer": issuer,
            "validFrom": valid_from,
            "validUntil": valid_until,
            "awardedDate": awarded_date,
            "credentialSubject": credential_subject,
            "evidence": evidence,
            "credentialSchema": credential_schema,
            "proof": proof,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.badge_credential_credential_schema_item import BadgeCredentialCredentialSchemaItem # noqa: PLC0415
        from ..models.badge_credential_credentialsubject import BadgeCredentialCredentialsubject # noqa: PLC0415
        from ..models.badge_credential_evidence_item import BadgeCredentialEvidenceItem # noqa: PLC0415
        from ..models.badge_credential_image import BadgeCredentialImage # noqa: PLC0415
        from ..models.badge_credential_issuer import BadgeCredentialIssuer # noqa: PLC0415
        from ..models.credential_proof import CredentialProof # noqa: PLC0415
        d = dict(src_dict)
        context = cast(list[Any], d.pop("@context"))


        id = d.pop("id")

        type_ = cast(list[str], d.pop("type"))


        name = d.pop("name")

        description = d.pop("description")

        image = BadgeCredentialImage.from_dict(d.pop("image"))




        issuer = BadgeCredentialIssuer.from_dict(d.pop("issuer"))




        valid_from = d.pop("validFrom")

        valid_until = d.pop("validUntil")

        awarded_date = d.pop("awardedDate")

        credential_subject = BadgeCredentialCredentialsubject.from_dict(d.pop("credentialSubject"))




        evidence = []
        _evidence = d.pop("evidence")
        for evidence_item_data in (_evidence):
            evidence_item = BadgeCredentialEvidenceItem.from_dict(evidence_item_data)



            evidence.append(evidence_item)


        credential_schema = []
        _credential_schema = d.pop("credentialSchema")
        for credential_schema_item_data in (_credential_schema):
            credential_schema_item = BadgeCredentialCredentialSchemaItem.from_dict(credential_schema_item_data)



            credential_schema.append(credential_schema_item)


        proof = CredentialProof.from_dict(d.pop("proof"))




        badge_credential = cls(
            context=context,
            id=id,
            type_=type_,
            name=name,
            description=description,
            image=image,
            issuer=issuer,
            valid_from=valid_from,
            valid_until=valid_until,
            awarded_date=awarded_date,
            credential_subject=credential_subject,
            evidence=evidence,
            credential_schema=credential_schema,
            proof=proof,
        )


        badge_credential.additional_properties = d
        return badge_credential

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
