-- A database that quire created before versioned migrations (built from commit
-- 9fa348e, which migrated with ent's auto-migration): quire migrate, admin bootstrap
-- (organization "Acme", ada@example.com), admin user create (grace@example.com,
-- edit), then through /v1: a collection "Guides", a space "Getting started" in it
-- with the getting-started template (three pages), a change request "Fix the
-- quickstart", and a published site "Docs".
-- ada's bootstrap token: qt_qVoIZbBsV513DYIO0CCTC0G6UY4RQYZCnEE6EaCm
-- Dumped with: pg_dump --inserts --column-inserts --no-owner --no-privileges --no-comments
-- (less psql's \restrict lines)
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: api_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_tokens (
    id character varying NOT NULL,
    token_hash character varying NOT NULL,
    label character varying DEFAULT ''::character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    user_id character varying NOT NULL
);


--
-- Name: change_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_requests (
    id character varying NOT NULL,
    number bigint NOT NULL,
    subject character varying DEFAULT ''::character varying NOT NULL,
    description text,
    status character varying DEFAULT 'draft'::character varying NOT NULL,
    created_by character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    revision_initial character varying NOT NULL,
    revision_id character varying NOT NULL,
    revision_merged_ancestor character varying,
    revision_merged character varying,
    merged_at timestamp with time zone,
    contributors jsonb,
    space_id character varying NOT NULL
);


--
-- Name: collections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.collections (
    id character varying NOT NULL,
    title character varying NOT NULL,
    description character varying,
    default_level character varying,
    "position" character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    parent_id character varying,
    organization_id character varying NOT NULL
);


--
-- Name: content_blobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.content_blobs (
    id character varying NOT NULL,
    data bytea NOT NULL,
    size bigint NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: file_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.file_versions (
    id character varying NOT NULL,
    space_id character varying NOT NULL,
    file_id character varying NOT NULL,
    name character varying NOT NULL,
    content_type character varying NOT NULL,
    size bigint NOT NULL,
    blob_id character varying NOT NULL,
    width bigint,
    height bigint,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: job_leases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_leases (
    id character varying NOT NULL,
    holder character varying DEFAULT ''::character varying NOT NULL,
    locked_until timestamp with time zone NOT NULL
);


--
-- Name: members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.members (
    id character varying NOT NULL,
    role character varying,
    disabled boolean DEFAULT false NOT NULL,
    sso boolean DEFAULT false NOT NULL,
    joined_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone,
    organization_id character varying NOT NULL,
    user_id character varying NOT NULL
);


--
-- Name: organizations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.organizations (
    id character varying NOT NULL,
    title character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    email_domains jsonb NOT NULL,
    hostname character varying,
    type character varying DEFAULT 'business'::character varying NOT NULL,
    default_role character varying,
    invite_links boolean DEFAULT false NOT NULL,
    sso boolean DEFAULT false NOT NULL,
    ai boolean DEFAULT false NOT NULL,
    plan character varying DEFAULT 'free'::character varying NOT NULL,
    merge_rules jsonb NOT NULL
);


--
-- Name: page_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.page_versions (
    id character varying NOT NULL,
    space_id character varying NOT NULL,
    page_id character varying NOT NULL,
    parent_id character varying DEFAULT ''::character varying NOT NULL,
    "position" character varying NOT NULL,
    type character varying DEFAULT 'document'::character varying NOT NULL,
    title character varying DEFAULT ''::character varying NOT NULL,
    slug character varying DEFAULT ''::character varying NOT NULL,
    emoji character varying DEFAULT ''::character varying NOT NULL,
    description character varying DEFAULT ''::character varying NOT NULL,
    hidden boolean DEFAULT false NOT NULL,
    layout jsonb,
    cover jsonb,
    variables jsonb,
    document_id character varying,
    link jsonb,
    content_hash character varying DEFAULT ''::character varying NOT NULL,
    meta_hash character varying DEFAULT ''::character varying NOT NULL,
    refs jsonb,
    anchors jsonb,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: revision_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.revision_entries (
    id bigint NOT NULL,
    space_id character varying NOT NULL,
    kind character varying NOT NULL,
    item_id character varying NOT NULL,
    version_id character varying,
    revision_id character varying NOT NULL
);


--
-- Name: revision_entries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.revision_entries ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.revision_entries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: revisions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.revisions (
    id character varying NOT NULL,
    type character varying DEFAULT 'edits'::character varying NOT NULL,
    parents jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    base_id character varying,
    chain jsonb,
    change_request_id character varying,
    author_id character varying,
    variables jsonb,
    space_id character varying NOT NULL
);


--
-- Name: server_secrets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.server_secrets (
    id character varying NOT NULL,
    value bytea NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: site_section_groups; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.site_section_groups (
    id character varying NOT NULL,
    parent_id character varying,
    title character varying NOT NULL,
    icon character varying,
    "position" character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    site_id character varying NOT NULL
);


--
-- Name: site_sections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.site_sections (
    id character varying NOT NULL,
    group_id character varying,
    title character varying NOT NULL,
    description character varying,
    path character varying NOT NULL,
    condition character varying,
    icon character varying,
    default_site_space_id character varying,
    "position" character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    site_id character varying NOT NULL
);


--
-- Name: site_share_links; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.site_share_links (
    id character varying NOT NULL,
    name character varying DEFAULT ''::character varying NOT NULL,
    active boolean DEFAULT true NOT NULL,
    key character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    site_id character varying NOT NULL
);


--
-- Name: site_spaces; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.site_spaces (
    id character varying NOT NULL,
    section_id character varying,
    path character varying NOT NULL,
    condition character varying,
    hidden boolean DEFAULT false NOT NULL,
    "position" character varying NOT NULL,
    customization bytea,
    created_at timestamp with time zone NOT NULL,
    site_id character varying NOT NULL,
    space_id character varying NOT NULL
);


--
-- Name: sites; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sites (
    id character varying NOT NULL,
    type character varying DEFAULT 'basic'::character varying NOT NULL,
    title character varying NOT NULL,
    visibility character varying DEFAULT 'public'::character varying NOT NULL,
    published boolean DEFAULT false NOT NULL,
    basename character varying NOT NULL,
    hostname character varying,
    proxy character varying,
    adaptive_content boolean DEFAULT false NOT NULL,
    agents_context character varying DEFAULT 'included'::character varying NOT NULL,
    ads_status character varying DEFAULT 'pending'::character varying NOT NULL,
    default_site_space_id character varying,
    default_section_id character varying,
    customization bytea,
    adaptive_schema bytea,
    adaptive_schema_updated_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    organization_id character varying NOT NULL
);


--
-- Name: spaces; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.spaces (
    id character varying NOT NULL,
    title character varying NOT NULL,
    emoji character varying DEFAULT ''::character varying NOT NULL,
    icon character varying,
    visibility character varying DEFAULT 'private'::character varying NOT NULL,
    default_level character varying,
    edit_mode character varying DEFAULT 'live'::character varying NOT NULL,
    language character varying,
    merge_rules jsonb NOT NULL,
    "position" character varying NOT NULL,
    revision_id character varying DEFAULT ''::character varying NOT NULL,
    change_requests bigint DEFAULT 0 NOT NULL,
    change_requests_open bigint DEFAULT 0 NOT NULL,
    change_requests_draft bigint DEFAULT 0 NOT NULL,
    comments bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    deleted_at timestamp with time zone,
    parent_id character varying,
    organization_id character varying NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id character varying NOT NULL,
    email character varying NOT NULL,
    display_name character varying NOT NULL,
    photo_url character varying,
    created_at timestamp with time zone NOT NULL
);


--
-- Data for Name: api_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.api_tokens (id, token_hash, label, created_at, user_id) VALUES ('T9MSxGkCAgCyH5wmM1oS', '19228661ef518ac3f6e08288691867208ea98580f24803a155a7fc0b9fec0949', 'bootstrap', '2026-11-25 09:01:12.567914+00', 'UCy20nfXPPV2yKAKEbPR');
INSERT INTO public.api_tokens (id, token_hash, label, created_at, user_id) VALUES ('TycsOPIkFS20EGtIm3kC', '674db92aa459928ddf155a42eeae93d0b2a17a5f48bfba160f504539f35a4389', 'admin cli', '2026-11-25 09:01:12.750718+00', 'UeGvRBuCNap9OmILjGzA');


--
-- Data for Name: change_requests; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.change_requests (id, number, subject, description, status, created_by, created_at, updated_at, revision_initial, revision_id, revision_merged_ancestor, revision_merged, merged_at, contributors, space_id) VALUES ('QpYtBvYfKkAP2WEmzHuk', 1, 'Fix the quickstart', NULL, 'draft', 'UCy20nfXPPV2yKAKEbPR', '2026-11-25 09:01:13.057152+00', '2026-11-25 09:01:13.057152+00', 'RnEPR7GEu3z6oDbF7Ko3', 'RnEPR7GEu3z6oDbF7Ko3', NULL, NULL, NULL, '[]', 'SvkiafHAnToNeF1eVCWa');


--
-- Data for Name: collections; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.collections (id, title, description, default_level, "position", created_at, updated_at, parent_id, organization_id) VALUES ('CMd7qcxaMsWhCdokvTtC', 'Guides', NULL, 'inherit', 'i1', '2026-11-25 09:01:12.880226+00', '2026-11-25 09:01:12.880227+00', NULL, 'ORZq1CkgSxpLW16osZbr');


--
-- Data for Name: content_blobs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.content_blobs (id, data, size, created_at) VALUES ('3fc316c5073288ffad592f044b80bad370b3647566a43bd1a5c83dab50875d45', '\x7b226f626a656374223a22646f63756d656e74222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22657870616e6461626c65222c2264617461223a7b7d2c22667261676d656e7473223a5b7b226f626a656374223a22667261676d656e74222c22667261676d656e74223a22657870616e6461626c652d7469746c65222c2274797065223a22657870616e6461626c652d7469746c65222c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a2257686f206973207468652070726f6475637420666f723f222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d7d2c7b226f626a656374223a22667261676d656e74222c22667261676d656e74223a22657870616e6461626c652d626f6479222c2274797065223a22657870616e6461626c652d626f6479222c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a224465736372696265207468652070656f706c6520616e64207465616d73207468652070726f64756374206973206d61646520666f722e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d7d5d2c226973566f6964223a747275657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22657870616e6461626c65222c2264617461223a7b7d2c22667261676d656e7473223a5b7b226f626a656374223a22667261676d656e74222c22667261676d656e74223a22657870616e6461626c652d7469746c65222c2274797065223a22657870616e6461626c652d7469746c65222c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22486f77206d75636820646f657320697420636f73743f222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d7d2c7b226f626a656374223a22667261676d656e74222c22667261676d656e74223a22657870616e6461626c652d626f6479222c2274797065223a22657870616e6461626c652d626f6479222c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a224578706c61696e2074686520706c616e732c206f72206c696e6b20746f207468652070726963696e6720706167652e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d7d5d2c226973566f6964223a747275657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22657870616e6461626c65222c2264617461223a7b7d2c22667261676d656e7473223a5b7b226f626a656374223a22667261676d656e74222c22667261676d656e74223a22657870616e6461626c652d7469746c65222c2274797065223a22657870616e6461626c652d7469746c65222c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22576865726520646f2049207265706f727420612070726f626c656d3f222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d7d2c7b226f626a656374223a22667261676d656e74222c22667261676d656e74223a22657870616e6461626c652d626f6479222c2274797065223a22657870616e6461626c652d626f6479222c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a2254656c6c207265616465727320686f7720746f207265706f7274206275677320616e6420726571756573742066656174757265732e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d7d5d2c226973566f6964223a747275657d5d7d', 1867, '2026-11-25 09:01:13.046212+00');
INSERT INTO public.content_blobs (id, data, size, created_at) VALUES ('4d574db265d1d96b2df62ef1af9ab1a0d3d2c2f294228859b53b385007d89ef3', '\x7b226f626a656374223a22646f63756d656e74222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22466f6c6c6f7720746865736520737465707320746f20676f2066726f6d206e6f7468696e6720746f206120776f726b696e672073657475702e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a2268656164696e672d32222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22312e20496e7374616c6c222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22496e7374616c6c207468652070726f64756374207769746820796f7572207061636b616765206d616e616765723a222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22636f6465222c2264617461223a7b2273796e746178223a227368227d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22636f64652d6c696e65222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a2223205265706c616365207769746820796f757220696e7374616c6c6174696f6e20636f6d6d616e64222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22636f64652d6c696e65222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22696e7374616c6c206d792d70726f64756374222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a2268656164696e672d32222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22322e20436f6e666967757265222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22437265617465206120636f6e66696775726174696f6e2066696c6520616e642073657420746865206665772076616c756573206576657279207365747570206e656564732e2045766572797468696e6720656c73652068617320612073656e7369626c652064656661756c742e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a2268656164696e672d32222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22332e2052756e20796f7572206669727374207461736b222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a2252756e2061206669727374207461736b20616e6420636865636b2069747320726573756c742e205768656e20697420776f726b732c20796f752061726520726561647920666f72207468652072657374206f662074686520646f63756d656e746174696f6e2e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a2268696e74222c2264617461223a7b227374796c65223a2273756363657373227d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22446f6e6521204e6578742c20726561642074686520222c226d61726b73223a5b5d7d5d7d2c7b226f626a656374223a22696e6c696e65222c2274797065223a226c696e6b222c2264617461223a7b22726566223a7b226b696e64223a2270616765222c2270616765223a2250456f374176697237664c304a6c39514d715462227d7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22464151222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a2220666f7220746865207175657374696f6e73206e65772075736572732061736b206d6f73742e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d2c226973566f6964223a66616c73657d5d7d', 2351, '2026-11-25 09:01:13.046212+00');
INSERT INTO public.content_blobs (id, data, size, created_at) VALUES ('cc6a974053a6b3aafdda6478883d24cb6d1dddbb3abedb7a639d2c1fd457742b', '\x7b226f626a656374223a22646f63756d656e74222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a225468697320737061636520646f63756d656e7473207468652070726f647563743a207768617420697420646f65732c20686f7720746f2073657420697420757020616e6420776865726520746f206765742068656c702e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a2268656164696e672d32222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22576865726520746f20676f206e657874222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a226c6973742d756e6f726465726564222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a226c6973742d6974656d222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22696e6c696e65222c2274797065223a226c696e6b222c2264617461223a7b22726566223a7b226b696e64223a2270616765222c2270616765223a22506f78543953656544614c34645538543851636a227d7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22517569636b7374617274222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a223a20696e7374616c6c207468652070726f6475637420616e642066696e6973682061206669727374207461736b20696e206120666577206d696e757465732e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a226c6973742d6974656d222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a22696e6c696e65222c2274797065223a226c696e6b222c2264617461223a7b22726566223a7b226b696e64223a2270616765222c2270616765223a2250456f374176697237664c304a6c39514d715462227d7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a22464151222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a223a20616e737765727320746f20746865207175657374696f6e7320726561646572732061736b206d6f73742e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d2c226973566f6964223a66616c73657d5d2c226973566f6964223a66616c73657d2c7b226f626a656374223a22626c6f636b222c2274797065223a2268696e74222c2264617461223a7b227374796c65223a22696e666f227d2c226e6f646573223a5b7b226f626a656374223a22626c6f636b222c2274797065223a22706172616772617068222c2264617461223a7b7d2c226e6f646573223a5b7b226f626a656374223a2274657874222c226c6561766573223a5b7b226f626a656374223a226c656166222c2274657874223a225265706c61636520746869732074657874207769746820612073686f727420696e74726f64756374696f6e3a2077686f207468652070726f6475637420697320666f7220616e642077686963682070726f626c656d20697420736f6c7665732e222c226d61726b73223a5b5d7d5d7d5d2c226973566f6964223a66616c73657d5d2c226973566f6964223a66616c73657d5d7d', 1747, '2026-11-25 09:01:13.046212+00');


--
-- Data for Name: file_versions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: job_leases; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.job_leases (id, holder, locked_until) VALUES ('purge-deleted-spaces', 'vm/19411/fd7a76526891', '2026-11-25 09:02:12.802662+00');


--
-- Data for Name: members; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.members (id, role, disabled, sso, joined_at, last_seen_at, organization_id, user_id) VALUES ('MfZid6yuszeIFWWfKTXx', 'admin', false, false, '2026-11-25 09:01:12.567317+00', NULL, 'ORZq1CkgSxpLW16osZbr', 'UCy20nfXPPV2yKAKEbPR');
INSERT INTO public.members (id, role, disabled, sso, joined_at, last_seen_at, organization_id, user_id) VALUES ('MPMtKYiNuVtMfgTWsJ2m', 'edit', false, false, '2026-11-25 09:01:12.750244+00', NULL, 'ORZq1CkgSxpLW16osZbr', 'UeGvRBuCNap9OmILjGzA');


--
-- Data for Name: organizations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.organizations (id, title, created_at, email_domains, hostname, type, default_role, invite_links, sso, ai, plan, merge_rules) VALUES ('ORZq1CkgSxpLW16osZbr', 'Acme', '2026-11-25 09:01:12.56502+00', '[]', NULL, 'business', NULL, false, false, false, 'free', '{"type": "none"}');


--
-- Data for Name: page_versions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.page_versions (id, space_id, page_id, parent_id, "position", type, title, slug, emoji, description, hidden, layout, cover, variables, document_id, link, content_hash, meta_hash, refs, anchors, created_at) VALUES ('EHXlZfz2llNIMLiCtXfq', 'SvkiafHAnToNeF1eVCWa', 'PEo7Avir7fL0Jl9QMqTb', '', 'i3', 'document', 'FAQ', 'faq', '2753', 'Answers to the questions readers ask most.', false, NULL, NULL, NULL, '3fc316c5073288ffad592f044b80bad370b3647566a43bd1a5c83dab50875d45', NULL, 'd:3fc316c5073288ffad592f044b80bad370b3647566a43bd1a5c83dab50875d45', 'bb35adb6154d298b116088cf1e0440f5b310f721c2f8b4b04abb8ab150906109', NULL, NULL, '2026-11-25 09:01:13.044426+00');
INSERT INTO public.page_versions (id, space_id, page_id, parent_id, "position", type, title, slug, emoji, description, hidden, layout, cover, variables, document_id, link, content_hash, meta_hash, refs, anchors, created_at) VALUES ('EiPF1y16A3DN6bq1zitj', 'SvkiafHAnToNeF1eVCWa', 'PbaQYm2omGFmT2wXbGjA', '', 'i1', 'document', 'Welcome', 'welcome', '1f44b', 'What this documentation covers and where to start.', false, NULL, NULL, NULL, 'cc6a974053a6b3aafdda6478883d24cb6d1dddbb3abedb7a639d2c1fd457742b', NULL, 'd:cc6a974053a6b3aafdda6478883d24cb6d1dddbb3abedb7a639d2c1fd457742b', 'e24eda39372fd6cb62939962d16d6302107692995019e9c8196dc82abcd4681e', '[{"kind": "page", "node": "link", "page": "PoxT9SeeDaL4dU8T8Qcj", "text": "Quickstart"}, {"kind": "page", "node": "link", "page": "PEo7Avir7fL0Jl9QMqTb", "text": "FAQ"}]', '["where-to-go-next"]', '2026-11-25 09:01:13.044426+00');
INSERT INTO public.page_versions (id, space_id, page_id, parent_id, "position", type, title, slug, emoji, description, hidden, layout, cover, variables, document_id, link, content_hash, meta_hash, refs, anchors, created_at) VALUES ('ErVoNFpbdjMkx3G4s8Jr', 'SvkiafHAnToNeF1eVCWa', 'PoxT9SeeDaL4dU8T8Qcj', '', 'i2', 'document', 'Quickstart', 'quickstart', '1f680', 'From nothing to a working setup in a few minutes.', false, NULL, NULL, NULL, '4d574db265d1d96b2df62ef1af9ab1a0d3d2c2f294228859b53b385007d89ef3', NULL, 'd:4d574db265d1d96b2df62ef1af9ab1a0d3d2c2f294228859b53b385007d89ef3', 'b65050f842f1c28bc38766d57384fd4e5aa5c20bc503e4901b919796236cb97b', '[{"kind": "page", "node": "link", "page": "PEo7Avir7fL0Jl9QMqTb", "text": "FAQ"}]', '["1-install", "2-configure", "3-run-your-first-task"]', '2026-11-25 09:01:13.044426+00');


--
-- Data for Name: revision_entries; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.revision_entries (id, space_id, kind, item_id, version_id, revision_id) VALUES (1, 'SvkiafHAnToNeF1eVCWa', 'page', 'PEo7Avir7fL0Jl9QMqTb', 'EHXlZfz2llNIMLiCtXfq', 'RnEPR7GEu3z6oDbF7Ko3');
INSERT INTO public.revision_entries (id, space_id, kind, item_id, version_id, revision_id) VALUES (2, 'SvkiafHAnToNeF1eVCWa', 'page', 'PbaQYm2omGFmT2wXbGjA', 'EiPF1y16A3DN6bq1zitj', 'RnEPR7GEu3z6oDbF7Ko3');
INSERT INTO public.revision_entries (id, space_id, kind, item_id, version_id, revision_id) VALUES (3, 'SvkiafHAnToNeF1eVCWa', 'page', 'PoxT9SeeDaL4dU8T8Qcj', 'ErVoNFpbdjMkx3G4s8Jr', 'RnEPR7GEu3z6oDbF7Ko3');


--
-- Data for Name: revisions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.revisions (id, type, parents, created_at, base_id, chain, change_request_id, author_id, variables, space_id) VALUES ('Rkss7brIhlgzLCpy6kdy', 'edits', '[]', '2026-11-25 09:01:12.967397+00', NULL, NULL, NULL, NULL, NULL, 'SvkiafHAnToNeF1eVCWa');
INSERT INTO public.revisions (id, type, parents, created_at, base_id, chain, change_request_id, author_id, variables, space_id) VALUES ('RnEPR7GEu3z6oDbF7Ko3', 'edits', '["Rkss7brIhlgzLCpy6kdy"]', '2026-11-25 09:01:13.044426+00', 'Rkss7brIhlgzLCpy6kdy', '["Rkss7brIhlgzLCpy6kdy", "RnEPR7GEu3z6oDbF7Ko3"]', NULL, 'UCy20nfXPPV2yKAKEbPR', '{}', 'SvkiafHAnToNeF1eVCWa');


--
-- Data for Name: server_secrets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.server_secrets (id, value, created_at) VALUES ('download-signing-key', '\xde08521977e2567f6a99c4ad263cffed8b2af38bc2ad8a05e97483f31647c547', '2026-11-25 09:01:12.801813+00');


--
-- Data for Name: site_section_groups; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: site_sections; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: site_share_links; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: site_spaces; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.site_spaces (id, section_id, path, condition, hidden, "position", customization, created_at, site_id, space_id) VALUES ('Vjo1A3pZavpJiBy3gdjS', NULL, 'getting-started', NULL, false, 'i1', NULL, '2026-11-25 09:01:13.151247+00', 'WRUTMlbdF2v5U5WcG6NQ', 'SvkiafHAnToNeF1eVCWa');


--
-- Data for Name: sites; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.sites (id, type, title, visibility, published, basename, hostname, proxy, adaptive_content, agents_context, ads_status, default_site_space_id, default_section_id, customization, adaptive_schema, adaptive_schema_updated_at, created_at, updated_at, organization_id) VALUES ('WRUTMlbdF2v5U5WcG6NQ', 'basic', 'Docs', 'public', true, 'docs', NULL, NULL, false, 'included', 'pending', 'Vjo1A3pZavpJiBy3gdjS', NULL, NULL, NULL, NULL, '2026-11-25 09:01:13.149602+00', '2026-11-25 09:01:13.228296+00', 'ORZq1CkgSxpLW16osZbr');


--
-- Data for Name: spaces; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.spaces (id, title, emoji, icon, visibility, default_level, edit_mode, language, merge_rules, "position", revision_id, change_requests, change_requests_open, change_requests_draft, comments, created_at, updated_at, deleted_at, parent_id, organization_id) VALUES ('SvkiafHAnToNeF1eVCWa', 'Getting started', '1f680', NULL, 'in-collection', 'inherit', 'live', NULL, '{"type": "inherit"}', 'i1', 'RnEPR7GEu3z6oDbF7Ko3', 1, 0, 1, 0, '2026-11-25 09:01:12.965453+00', '2026-11-25 09:01:13.044426+00', NULL, 'CMd7qcxaMsWhCdokvTtC', 'ORZq1CkgSxpLW16osZbr');


--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.users (id, email, display_name, photo_url, created_at) VALUES ('UCy20nfXPPV2yKAKEbPR', 'ada@example.com', 'Ada Lovelace', NULL, '2026-11-25 09:01:12.566602+00');
INSERT INTO public.users (id, email, display_name, photo_url, created_at) VALUES ('UeGvRBuCNap9OmILjGzA', 'grace@example.com', 'Grace Hopper', NULL, '2026-11-25 09:01:12.74962+00');


--
-- Name: revision_entries_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.revision_entries_id_seq', 3, true);


--
-- Name: api_tokens api_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (id);


--
-- Name: change_requests change_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_requests
    ADD CONSTRAINT change_requests_pkey PRIMARY KEY (id);


--
-- Name: collections collections_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collections
    ADD CONSTRAINT collections_pkey PRIMARY KEY (id);


--
-- Name: content_blobs content_blobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.content_blobs
    ADD CONSTRAINT content_blobs_pkey PRIMARY KEY (id);


--
-- Name: file_versions file_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.file_versions
    ADD CONSTRAINT file_versions_pkey PRIMARY KEY (id);


--
-- Name: job_leases job_leases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_leases
    ADD CONSTRAINT job_leases_pkey PRIMARY KEY (id);


--
-- Name: members members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_pkey PRIMARY KEY (id);


--
-- Name: organizations organizations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organizations
    ADD CONSTRAINT organizations_pkey PRIMARY KEY (id);


--
-- Name: page_versions page_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.page_versions
    ADD CONSTRAINT page_versions_pkey PRIMARY KEY (id);


--
-- Name: revision_entries revision_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.revision_entries
    ADD CONSTRAINT revision_entries_pkey PRIMARY KEY (id);


--
-- Name: revisions revisions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.revisions
    ADD CONSTRAINT revisions_pkey PRIMARY KEY (id);


--
-- Name: server_secrets server_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.server_secrets
    ADD CONSTRAINT server_secrets_pkey PRIMARY KEY (id);


--
-- Name: site_section_groups site_section_groups_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_section_groups
    ADD CONSTRAINT site_section_groups_pkey PRIMARY KEY (id);


--
-- Name: site_sections site_sections_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_sections
    ADD CONSTRAINT site_sections_pkey PRIMARY KEY (id);


--
-- Name: site_share_links site_share_links_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_share_links
    ADD CONSTRAINT site_share_links_pkey PRIMARY KEY (id);


--
-- Name: site_spaces site_spaces_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_spaces
    ADD CONSTRAINT site_spaces_pkey PRIMARY KEY (id);


--
-- Name: sites sites_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sites
    ADD CONSTRAINT sites_pkey PRIMARY KEY (id);


--
-- Name: spaces spaces_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spaces
    ADD CONSTRAINT spaces_pkey PRIMARY KEY (id);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: api_tokens_token_hash_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX api_tokens_token_hash_key ON public.api_tokens USING btree (token_hash);


--
-- Name: changerequest_space_id_number; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX changerequest_space_id_number ON public.change_requests USING btree (space_id, number);


--
-- Name: changerequest_space_id_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changerequest_space_id_status ON public.change_requests USING btree (space_id, status);


--
-- Name: collection_organization_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX collection_organization_id_position ON public.collections USING btree (organization_id, "position");


--
-- Name: collection_parent_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX collection_parent_id ON public.collections USING btree (parent_id);


--
-- Name: fileversion_blob_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX fileversion_blob_id ON public.file_versions USING btree (blob_id);


--
-- Name: fileversion_space_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX fileversion_space_id ON public.file_versions USING btree (space_id);


--
-- Name: member_organization_id_user_id; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX member_organization_id_user_id ON public.members USING btree (organization_id, user_id);


--
-- Name: member_user_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX member_user_id ON public.members USING btree (user_id);


--
-- Name: pageversion_document_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pageversion_document_id ON public.page_versions USING btree (document_id);


--
-- Name: pageversion_space_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pageversion_space_id ON public.page_versions USING btree (space_id);


--
-- Name: revisionentry_revision_id_kind_item_id; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX revisionentry_revision_id_kind_item_id ON public.revision_entries USING btree (revision_id, kind, item_id);


--
-- Name: revisionentry_space_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX revisionentry_space_id ON public.revision_entries USING btree (space_id);


--
-- Name: revisionentry_version_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX revisionentry_version_id ON public.revision_entries USING btree (version_id);


--
-- Name: site_organization_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX site_organization_id ON public.sites USING btree (organization_id);


--
-- Name: site_share_links_key_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX site_share_links_key_key ON public.site_share_links USING btree (key);


--
-- Name: sitesection_site_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sitesection_site_id_position ON public.site_sections USING btree (site_id, "position");


--
-- Name: sitesectiongroup_site_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sitesectiongroup_site_id_position ON public.site_section_groups USING btree (site_id, "position");


--
-- Name: sitespace_section_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sitespace_section_id ON public.site_spaces USING btree (section_id);


--
-- Name: sitespace_site_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sitespace_site_id_position ON public.site_spaces USING btree (site_id, "position");


--
-- Name: sitespace_space_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sitespace_space_id ON public.site_spaces USING btree (space_id);


--
-- Name: space_deleted_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX space_deleted_at ON public.spaces USING btree (deleted_at);


--
-- Name: space_organization_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX space_organization_id_position ON public.spaces USING btree (organization_id, "position");


--
-- Name: space_parent_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX space_parent_id ON public.spaces USING btree (parent_id);


--
-- Name: users_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_key ON public.users USING btree (email);


--
-- Name: api_tokens api_tokens_users_tokens; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_users_tokens FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: change_requests change_requests_spaces_change_request_list; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_requests
    ADD CONSTRAINT change_requests_spaces_change_request_list FOREIGN KEY (space_id) REFERENCES public.spaces(id) ON DELETE CASCADE;


--
-- Name: collections collections_collections_children; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collections
    ADD CONSTRAINT collections_collections_children FOREIGN KEY (parent_id) REFERENCES public.collections(id) ON DELETE SET NULL;


--
-- Name: collections collections_organizations_collections; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collections
    ADD CONSTRAINT collections_organizations_collections FOREIGN KEY (organization_id) REFERENCES public.organizations(id);


--
-- Name: members members_organizations_members; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_organizations_members FOREIGN KEY (organization_id) REFERENCES public.organizations(id) ON DELETE CASCADE;


--
-- Name: members members_users_memberships; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_users_memberships FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: revision_entries revision_entries_revisions_entries; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.revision_entries
    ADD CONSTRAINT revision_entries_revisions_entries FOREIGN KEY (revision_id) REFERENCES public.revisions(id) ON DELETE CASCADE;


--
-- Name: revisions revisions_spaces_revisions; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.revisions
    ADD CONSTRAINT revisions_spaces_revisions FOREIGN KEY (space_id) REFERENCES public.spaces(id) ON DELETE CASCADE;


--
-- Name: site_section_groups site_section_groups_sites_section_groups; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_section_groups
    ADD CONSTRAINT site_section_groups_sites_section_groups FOREIGN KEY (site_id) REFERENCES public.sites(id) ON DELETE CASCADE;


--
-- Name: site_sections site_sections_sites_sections; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_sections
    ADD CONSTRAINT site_sections_sites_sections FOREIGN KEY (site_id) REFERENCES public.sites(id) ON DELETE CASCADE;


--
-- Name: site_share_links site_share_links_sites_share_links; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_share_links
    ADD CONSTRAINT site_share_links_sites_share_links FOREIGN KEY (site_id) REFERENCES public.sites(id) ON DELETE CASCADE;


--
-- Name: site_spaces site_spaces_sites_site_spaces; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_spaces
    ADD CONSTRAINT site_spaces_sites_site_spaces FOREIGN KEY (site_id) REFERENCES public.sites(id) ON DELETE CASCADE;


--
-- Name: site_spaces site_spaces_spaces_site_spaces; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.site_spaces
    ADD CONSTRAINT site_spaces_spaces_site_spaces FOREIGN KEY (space_id) REFERENCES public.spaces(id) ON DELETE CASCADE;


--
-- Name: sites sites_organizations_sites; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sites
    ADD CONSTRAINT sites_organizations_sites FOREIGN KEY (organization_id) REFERENCES public.organizations(id);


--
-- Name: spaces spaces_collections_spaces; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spaces
    ADD CONSTRAINT spaces_collections_spaces FOREIGN KEY (parent_id) REFERENCES public.collections(id) ON DELETE SET NULL;


--
-- Name: spaces spaces_organizations_spaces; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spaces
    ADD CONSTRAINT spaces_organizations_spaces FOREIGN KEY (organization_id) REFERENCES public.organizations(id);


--
-- PostgreSQL database dump complete
--


